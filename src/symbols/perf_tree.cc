#include "symbols/perf_tree.h"

#include "symbols/symbol_aliases.h"

namespace flamefold {

void PerfTree::SetChild(int32_t parent, int32_t old_child,
                        int32_t new_child) {
  if (parent < 0) {
    root_ = new_child;
  } else if (nodes_[parent].left == old_child) {
    nodes_[parent].left = new_child;
  } else {
    nodes_[parent].right = new_child;
  }
  if (new_child >= 0) nodes_[new_child].parent = parent;
}

void PerfTree::RotateLeft(int32_t x) {
  int32_t y = nodes_[x].right;
  int32_t p = nodes_[x].parent;
  nodes_[x].right = nodes_[y].left;
  if (nodes_[y].left >= 0) nodes_[nodes_[y].left].parent = x;
  SetChild(p, x, y);
  nodes_[y].left = x;
  nodes_[x].parent = y;
}

void PerfTree::RotateRight(int32_t x) {
  int32_t y = nodes_[x].left;
  int32_t p = nodes_[x].parent;
  nodes_[x].left = nodes_[y].right;
  if (nodes_[y].right >= 0) nodes_[nodes_[y].right].parent = x;
  SetChild(p, x, y);
  nodes_[y].right = x;
  nodes_[x].parent = y;
}

void PerfTree::Insert(uint32_t sym, uint64_t start) {
  int32_t z = static_cast<int32_t>(nodes_.size());
  uint64_t key = start;
  nodes_.push_back(Node{-1, -1, -1, true, sym, key});
  int32_t parent = -1;
  bool left = false;
  for (int32_t n = root_; n >= 0;) {
    parent = n;
    left = key < nodes_[n].start;
    n = left ? nodes_[n].left : nodes_[n].right;
  }
  nodes_[z].parent = parent;
  if (parent < 0) {
    root_ = z;
  } else if (left) {
    nodes_[parent].left = z;
  } else {
    nodes_[parent].right = z;
  }
  InsertFixup(z);
}

// Restores the red-black rules from the new red node `z` up.
void PerfTree::InsertFixup(int32_t z) {
  auto red = [&](int32_t n) { return n >= 0 && nodes_[n].red; };
  while (red(nodes_[z].parent)) {
    int32_t p = nodes_[z].parent;
    int32_t g = nodes_[p].parent;
    if (p == nodes_[g].left) {
      int32_t u = nodes_[g].right;
      if (red(u)) {
        nodes_[p].red = nodes_[u].red = false;
        nodes_[g].red = true;
        z = g;
        continue;
      }
      if (z == nodes_[p].right) {
        z = p;
        RotateLeft(z);
        p = nodes_[z].parent;
      }
      nodes_[p].red = false;
      nodes_[g].red = true;
      RotateRight(g);
    } else {
      int32_t u = nodes_[g].left;
      if (red(u)) {
        nodes_[p].red = nodes_[u].red = false;
        nodes_[g].red = true;
        z = g;
        continue;
      }
      if (z == nodes_[p].left) {
        z = p;
        RotateRight(z);
        p = nodes_[z].parent;
      }
      nodes_[p].red = false;
      nodes_[g].red = true;
      RotateLeft(g);
    }
  }
  nodes_[root_].red = false;
}

void PerfTree::Erase(int32_t z) {
  int32_t x = -1, x_parent = -1;
  bool removed_red = nodes_[z].red;
  if (nodes_[z].left < 0) {
    x = nodes_[z].right;
    x_parent = nodes_[z].parent;
    SetChild(nodes_[z].parent, z, x);
  } else if (nodes_[z].right < 0) {
    x = nodes_[z].left;
    x_parent = nodes_[z].parent;
    SetChild(nodes_[z].parent, z, x);
  } else {
    int32_t y = nodes_[z].right;
    while (nodes_[y].left >= 0) y = nodes_[y].left;
    removed_red = nodes_[y].red;
    x = nodes_[y].right;
    if (nodes_[y].parent == z) {
      x_parent = y;
    } else {
      x_parent = nodes_[y].parent;
      SetChild(nodes_[y].parent, y, x);
      nodes_[y].right = nodes_[z].right;
      nodes_[nodes_[y].right].parent = y;
    }
    SetChild(nodes_[z].parent, z, y);
    nodes_[y].left = nodes_[z].left;
    nodes_[nodes_[y].left].parent = y;
    nodes_[y].red = nodes_[z].red;
  }
  nodes_[z].left = nodes_[z].right = nodes_[z].parent = -1;
  if (!removed_red) EraseFixup(x, x_parent);
}

void PerfTree::EraseFixup(int32_t x, int32_t parent) {
  auto red = [&](int32_t n) { return n >= 0 && nodes_[n].red; };
  while (x != root_ && !red(x)) {
    if (x == nodes_[parent].left) {
      int32_t w = nodes_[parent].right;
      if (red(w)) {
        nodes_[w].red = false;
        nodes_[parent].red = true;
        RotateLeft(parent);
        w = nodes_[parent].right;
      }
      if (!red(nodes_[w].left) && !red(nodes_[w].right)) {
        nodes_[w].red = true;
        x = parent;
        parent = nodes_[x].parent;
      } else {
        if (!red(nodes_[w].right)) {
          nodes_[nodes_[w].left].red = false;
          nodes_[w].red = true;
          RotateRight(w);
          w = nodes_[parent].right;
        }
        nodes_[w].red = nodes_[parent].red;
        nodes_[parent].red = false;
        if (nodes_[w].right >= 0) nodes_[nodes_[w].right].red = false;
        RotateLeft(parent);
        x = root_;
        parent = -1;
      }
    } else {
      int32_t w = nodes_[parent].left;
      if (red(w)) {
        nodes_[w].red = false;
        nodes_[parent].red = true;
        RotateRight(parent);
        w = nodes_[parent].left;
      }
      if (!red(nodes_[w].left) && !red(nodes_[w].right)) {
        nodes_[w].red = true;
        x = parent;
        parent = nodes_[x].parent;
      } else {
        if (!red(nodes_[w].left)) {
          nodes_[nodes_[w].right].red = false;
          nodes_[w].red = true;
          RotateLeft(w);
          w = nodes_[parent].left;
        }
        nodes_[w].red = nodes_[parent].red;
        nodes_[parent].red = false;
        if (nodes_[w].left >= 0) nodes_[nodes_[w].left].red = false;
        RotateRight(parent);
        x = root_;
        parent = -1;
      }
    }
  }
  if (x >= 0) nodes_[x].red = false;
}

int32_t PerfTree::First() const {
  int32_t n = root_;
  if (n < 0) return -1;
  while (nodes_[n].left >= 0) n = nodes_[n].left;
  return n;
}

int32_t PerfTree::Next(int32_t n) const {
  if (nodes_[n].right >= 0) {
    n = nodes_[n].right;
    while (nodes_[n].left >= 0) n = nodes_[n].left;
    return n;
  }
  int32_t p = nodes_[n].parent;
  while (p >= 0 && n == nodes_[p].right) {
    n = p;
    p = nodes_[p].parent;
  }
  return p;
}

void PerfTree::Build(BigVector<Symbol>* syms, std::span<const Symbol> late,
                     NameStore* names) {
  clear();
  nodes_.reserve(syms->size() + late.size());
  for (uint32_t i = 0; i < syms->size(); ++i) Insert(i, (*syms)[i].start);
  FixEnds(syms);
  EraseAliases(syms, names);
  for (const Symbol& s : late) {
    syms->push_back(s);
    Insert(static_cast<uint32_t>(syms->size() - 1), s.start);
  }
}

// Ends of size-less symbols, in tree order.
void PerfTree::FixEnds(BigVector<Symbol>* syms) const {
  for (int32_t n = First(); n >= 0;) {
    int32_t next = Next(n);
    if (next < 0) break;
    Symbol& prev = (*syms)[nodes_[n].sym];
    if (prev.end == prev.start) prev.end = (*syms)[nodes_[next].sym].start;
    n = next;
  }
  if (int32_t n = root_; n >= 0) {
    while (nodes_[n].right >= 0) n = nodes_[n].right;
    Symbol& last = (*syms)[nodes_[n].sym];
    if (last.end == last.start) last.end = RoundUpPage(last.start) + 4096;
  }
}

// One symbol per address, perf's walk: keep comparing the survivor with
// the next one.
void PerfTree::EraseAliases(BigVector<Symbol>* syms, NameStore* names) {
  for (int32_t curr = First(); curr >= 0;) {
    int32_t next = Next(curr);
    if (next < 0) break;
    Symbol& a = (*syms)[nodes_[curr].sym];
    Symbol& b = (*syms)[nodes_[next].sym];
    if (a.start != b.start) {
      curr = next;
      continue;
    }
    if (KeepFirst(&a, &b, names)) {
      Erase(next);
    } else {
      Erase(curr);
      curr = next;
    }
  }
}

}  // namespace flamefold
