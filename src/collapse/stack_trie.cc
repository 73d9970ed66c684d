#include "collapse/stack_trie.h"

#include <algorithm>
#include <cstring>

#include "base/hash.h"
#include "base/string_sort.h"

namespace flamefold {

StackTrie::StackTrie(const StringInterner* names) : names_(names) {
  nodes_.push_back(Node{kRoot, StringInterner::kNone, 0});
  counts_.emplace_back();
}

NodeId StackTrie::Child(NodeId parent, SymbolId frame) {
  if (!table_current_) RebuildTable();
  const uint64_t key = Slot::Key(parent, frame);
  const uint64_t hash = HashU64(key);
  Slot* slot =
      table_.FindOrFree(hash, [key](const Slot& s) { return s.key == key; });
  if (!slot->empty()) return slot->child;
  const NodeId id = NewNode(parent, frame);
  *slot = Slot{key, id};
  table_.Added([](const Slot& s) { return HashU64(s.key); });
  return id;
}

void StackTrie::ReleaseTable() {
  table_current_ = false;
  table_.Release();  // its memory is better spent on nodes
}

void StackTrie::RebuildTable() {
  table_.Reset(std::max<size_t>(2048, nodes_.size()));
  for (NodeId n = 1; n < nodes_.size(); ++n) {
    const uint64_t key = Slot::Key(nodes_[n].parent, nodes_[n].frame);
    *table_.FreeSlot(HashU64(key)) = Slot{key, n};
    table_.Added([](const Slot& s) { return HashU64(s.key); });
  }
  table_current_ = true;
}

NodeId StackTrie::FindCachedStack(std::span<const SymbolId> frames,
                                  uint64_t hash) const {
  // Verify: the path from the node up to the root must spell `frames`.
  const StackSlot* found = stacks_.Find(hash, [&](const StackSlot& s) {
    if (s.hash != hash) return false;
    NodeId m = s.node;
    size_t k = frames.size();
    while (k > 0 && m != kRoot && nodes_[m].frame == frames[k - 1]) {
      m = nodes_[m].parent;
      --k;
    }
    return k == 0 && m == kRoot;
  });
  return found == nullptr ? kRoot : found->node;
}

void StackTrie::CacheStack(uint64_t hash, NodeId node) {
  *stacks_.FreeSlot(hash) = StackSlot{hash, node};
  stacks_.Added([](const StackSlot& s) { return s.hash; });
}

NodeId StackTrie::Add(std::span<const SymbolId> frames,
                      const PerlNumber& weight) {
  uint64_t hash = HashBytes(std::string_view(
      reinterpret_cast<const char*>(frames.data()), frames.size_bytes()));
  NodeId n = frames.empty() ? kRoot : FindCachedStack(frames, hash);
  if (n == kRoot && !frames.empty()) {
    for (SymbolId f : frames) n = Child(n, f);
    CacheStack(hash, n);
  }
  AddCounts(n, weight, 1);
  return n;
}

void StackTrie::OnSample(std::span<const SymbolId> frames,
                         const PerlNumber& weight) {
  Add(frames, weight);
}

namespace {

struct Entry {
  std::string_view name;
  NodeId node;
  bool descendants;  // the entry stands for all lines below `node`
};

// The folded lines below a node N are "N" itself and "N;..." for its
// descendants. No name holds ';', so ordering the children's entries by the
// keys "name" (the node's own line) and "name;" (all its descendants' lines)
// gives exactly the byte order of the full lines.
bool EntryLess(const Entry& a, const Entry& b) {
  size_t n = std::min(a.name.size(), b.name.size());
  int cmp = a.name.substr(0, n).compare(b.name.substr(0, n));
  if (cmp != 0) return cmp < 0;
  auto next = [n](const Entry& e) -> int {
    if (n < e.name.size()) return static_cast<unsigned char>(e.name[n]);
    return e.descendants ? ';' : -1;
  };
  return next(a) < next(b);
}

}  // namespace

// Sorting a node's entries by these ranks is an integer sort. The names
// alone are sorted; each "name;" key is then placed in one pass. "name"
// comes just before the names it begins (the shorter sorts first), and
// "name;" after those of them whose next byte is below ';' and before
// those whose next byte is above (no name holds ';'). Walking the names in
// order with a stack of the names whose "name;" is still to come (each one
// begins the one above it, the byte after it below ';'), a name closes
// those it does not continue below ';'. Sorting both keys of every name with
// a comparison that looked at both endings would take twice as many
// comparisons.
std::vector<uint32_t> StackTrie::KeyRanks(const StringInterner& names) {
  const std::vector<SortableString> sorted = SortedStrings(names);
  std::vector<uint32_t> rank(2 * sorted.size());
  std::vector<const SortableString*> open;
  uint32_t next = 0;
  auto close = [&] {
    rank[2 * open.back()->id + 1] = next++;
    open.pop_back();
  };
  for (const SortableString& x : sorted) {
    while (!open.empty()) {
      std::string_view p = open.back()->text;
      if (x.text.size() > p.size() && x.text.substr(0, p.size()) == p &&
          static_cast<unsigned char>(x.text[p.size()]) < ';') {
        break;
      }
      close();
    }
    rank[2 * x.id] = next++;
    open.push_back(&x);
  }
  while (!open.empty()) close();
  return rank;
}

// In id order, the path to each node is the path to the node before, cut
// back to the node's parent and extended by the node. Its parent may also
// be a sibling of a node on that path instead: a node that ended a stack
// gets its children after the lines that sort between "name" and "name;"
// (see StackCounts::MoveInto). Whether visiting the nodes in id order gives
// the walk's order: the path to every node follows from the one before so,
// and each line sorts after the one before. Two successive lines differ
// first where the second leaves the first's path: there the first's node
// `y` and the second's node `x` are siblings, and their keys ("name" where
// the line ends, "name;" where it goes on) decide. The lines increase, and
// every line is visited once, so the order is the sorted one.
bool StackTrie::IdsInWalkOrder() const {
  std::vector<NodeId> path{kRoot};
  bool any = false;     // a line was seen
  size_t prev = 0;      // path.size() at that line
  size_t low = 0;       // the shortest path.size() since, after a pop
  NodeId left = kRoot;  // the node popped at that size: the last line's
  const Node* nodes = nodes_.data();
  for (NodeId n = 1; n < nodes_.size(); ++n) {
    const NodeId p = nodes[n].parent;
    while (path.back() != p) {
      const NodeId top = path.back();
      path.pop_back();
      if (path.empty()) return false;
      if (path.size() < low) {
        low = path.size();
        left = top;
      }
      if (p != kRoot && path.back() == nodes[p].parent) {
        path.push_back(p);  // p: a sibling of `top`
        break;
      }
    }
    path.push_back(n);
    if (!HasLine(n)) continue;
    if (any && low < prev) {
      // No name holds ';', so comparing "y" or "y;" with "x" or "x;" is
      // comparing the key entries.
      Entry y{names_->Get(nodes[left].frame), left, low + 1 < prev};
      NodeId x = path[low];
      Entry e{names_->Get(nodes[x].frame), x, low + 1 < path.size()};
      if (!EntryLess(y, e)) return false;
    }
    any = true;
    prev = low = path.size();
  }
  return true;
}

void StackTrie::WalkInIdOrder(
    const std::function<void(NodeId, std::string_view)>& visit) const {
  struct Open {
    NodeId node;
    size_t end;  // length of the line through this node's name
  };
  std::vector<Open> path{{kRoot, 0}};
  std::string line(4096, '\0');  // [0, path.back().end): the current line
  const Node* nodes = nodes_.data();
  auto push = [&](NodeId m) {
    const std::string_view name = names_->Get(nodes[m].frame);
    const size_t at = path.back().end;
    if (at + 1 + name.size() > line.size()) {
      line.resize(std::max(at + 1 + name.size(), 2 * line.size()));
    }
    char* d = line.data() + at;
    if (path.size() > 1) *d++ = ';';
    if (!name.empty()) std::memcpy(d, name.data(), name.size());
    path.push_back({m, static_cast<size_t>(d - line.data()) + name.size()});
  };
  for (NodeId n = 1; n < nodes_.size(); ++n) {
    // As in IdsInWalkOrder, which made sure the parent is found.
    const NodeId p = nodes[n].parent;
    while (path.back().node != p) {
      path.pop_back();
      if (p != kRoot && path.back().node == nodes[p].parent) {
        push(p);
        break;
      }
    }
    push(n);
    if (HasLine(n)) visit(n, std::string_view(line.data(), path.back().end));
  }
}

void StackTrie::Walk(
    const std::function<void(NodeId, std::string_view)>& visit) const {
  if (walk_order_marked_ || IdsInWalkOrder()) {
    WalkInIdOrder(visit);
    return;
  }
  // Iterative, so a 100,000-frame stack cannot overflow the call stack; the
  // entries of all open levels share one vector, so nothing is allocated
  // per node.
  const std::vector<uint32_t> rank = KeyRanks(*names_);
  struct Item {
    uint32_t key;  // rank of "name" or "name;"
    NodeId node;
    bool descendants;  // the entry stands for all lines below `node`
  };
  struct Level {
    size_t begin, next, end;  // this level's entries; [next, end) to visit
    size_t base;              // length of `line` before this level's names
  };
  // The children of node n are children[first[n], first[n + 1]): counted
  // per parent, then placed from the last node down.
  const size_t count = nodes_.size();
  std::vector<NodeId> first(count + 1, 0);
  for (NodeId c = 1; c < count; ++c) first[nodes_[c].parent]++;
  for (size_t i = 1; i < count; ++i) first[i] += first[i - 1];
  first[count] = static_cast<NodeId>(count - 1);
  std::vector<NodeId> children(count - 1);
  for (NodeId c = static_cast<NodeId>(count - 1); c >= 1; --c) {
    children[--first[nodes_[c].parent]] = c;
  }
  std::vector<Item> items;
  std::vector<Level> levels;
  std::string line;
  auto push = [&](NodeId n) {
    size_t begin = items.size();
    for (NodeId k = first[n]; k < first[n + 1]; ++k) {
      const NodeId c = children[k];
      SymbolId f = nodes_[c].frame;
      if (HasLine(c)) items.push_back({rank[2 * f], c, false});
      if (first[c + 1] > first[c]) items.push_back({rank[2 * f + 1], c, true});
    }
    std::sort(items.begin() + begin, items.end(),
              [](const Item& a, const Item& b) { return a.key < b.key; });
    levels.push_back({begin, begin, items.size(), line.size()});
  };
  push(kRoot);
  while (!levels.empty()) {
    Level& level = levels.back();
    if (level.next == level.end) {
      items.resize(level.begin);
      line.resize(level.base);
      levels.pop_back();
      continue;
    }
    const Item e = items[level.next++];
    line.resize(level.base);
    if (levels.size() > 1) line.push_back(';');
    line.append(names_->Get(nodes_[e.node].frame));
    if (e.descendants) {
      push(e.node);
    } else {
      visit(e.node, line);
    }
  }
}

}  // namespace flamefold
