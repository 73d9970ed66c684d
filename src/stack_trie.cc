#include "flamefold/stack_trie.h"

#include <algorithm>

#include "flamefold/hash.h"

namespace flamefold {

namespace {
constexpr uint64_t kEmptyKey = UINT64_MAX;
}

StackTrie::StackTrie(const StringInterner* names)
    : names_(names), keys_(4096, kEmptyKey), slots_(4096), mask_(4095) {
  nodes_.push_back(Node{kRoot, StringInterner::kNone, 0, 0, 0, {}});
}

NodeId StackTrie::Child(NodeId parent, SymbolId frame) {
  uint64_t key = (static_cast<uint64_t>(parent) << 32) | frame;
  size_t i = HashU64(key) & mask_;
  for (;; i = (i + 1) & mask_) {
    if (keys_[i] == key) return slots_[i];
    if (keys_[i] == kEmptyKey) break;
  }
  NodeId id = static_cast<NodeId>(nodes_.size());
  Node node{parent, frame, 0, 0, 0, {}};
  node.next_sibling = nodes_[parent].first_child;
  nodes_[parent].first_child = id;
  nodes_.push_back(node);
  keys_[i] = key;
  slots_[i] = id;
  if (nodes_.size() * 2 > keys_.size()) Grow();
  return id;
}

void StackTrie::Grow() {
  std::vector<uint64_t> old_keys = std::move(keys_);
  std::vector<NodeId> old_slots = std::move(slots_);
  keys_.assign(old_keys.size() * 2, kEmptyKey);
  slots_.assign(old_keys.size() * 2, 0);
  mask_ = keys_.size() - 1;
  for (size_t j = 0; j < old_keys.size(); ++j) {
    if (old_keys[j] == kEmptyKey) continue;
    size_t i = HashU64(old_keys[j]) & mask_;
    while (keys_[i] != kEmptyKey) i = (i + 1) & mask_;
    keys_[i] = old_keys[j];
    slots_[i] = old_slots[j];
  }
}

NodeId StackTrie::Add(std::span<const SymbolId> frames,
                      const PerlNumber& weight) {
  NodeId n = kRoot;
  for (SymbolId f : frames) n = Child(n, f);
  nodes_[n].weight.Add(weight);
  nodes_[n].samples++;
  total_samples_++;
  return n;
}

void StackTrie::OnSample(std::span<const SymbolId> frames,
                         const PerlNumber& weight) {
  Add(frames, weight);
}

void StackTrie::Merge(const StackTrie& other, StringInterner* names) {
  std::vector<SymbolId> name_map(other.names().size(), StringInterner::kNone);
  std::vector<NodeId> node_map(other.nodes_.size(), kRoot);
  // Parents are created before their children, so ids increase downwards.
  for (NodeId n = 1; n < other.nodes_.size(); ++n) {
    const Node& node = other.nodes_[n];
    SymbolId& f = name_map[node.frame];
    if (f == StringInterner::kNone) f = names->Intern(other.names().Get(node.frame));
    node_map[n] = Child(node_map[node.parent], f);
    if (node.samples > 0) AddCounts(node_map[n], node.weight, node.samples);
  }
}

std::vector<NodeId> StackTrie::Children(NodeId n) const {
  std::vector<NodeId> out;
  for (NodeId c = nodes_[n].first_child; c != 0; c = nodes_[c].next_sibling) {
    out.push_back(c);
  }
  std::reverse(out.begin(), out.end());
  return out;
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

void StackTrie::Walk(
    const std::function<void(NodeId, std::string_view)>& visit) const {
  // Iterative, so a 100,000-frame stack cannot overflow the call stack.
  struct Level {
    std::vector<Entry> entries;
    size_t next = 0;
    size_t base = 0;  // length of `line` before this level's names
  };
  std::vector<Level> levels;
  std::string line;
  auto push = [&](NodeId n) {
    Level level;
    level.base = line.size();
    for (NodeId c = nodes_[n].first_child; c != 0;
         c = nodes_[c].next_sibling) {
      std::string_view name = names_->Get(nodes_[c].frame);
      if (nodes_[c].samples > 0) level.entries.push_back({name, c, false});
      if (nodes_[c].first_child != 0) level.entries.push_back({name, c, true});
    }
    std::sort(level.entries.begin(), level.entries.end(), EntryLess);
    levels.push_back(std::move(level));
  };
  push(kRoot);
  while (!levels.empty()) {
    Level& level = levels.back();
    if (level.next == level.entries.size()) {
      line.resize(level.base);
      levels.pop_back();
      continue;
    }
    const Entry e = level.entries[level.next++];
    line.resize(level.base);
    if (levels.size() > 1) line.push_back(';');
    line.append(e.name);
    if (e.descendants) {
      push(e.node);
    } else {
      visit(e.node, line);
    }
  }
}

}  // namespace flamefold
