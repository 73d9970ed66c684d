// flamefold --format=d3: the stacks as the JSON tree d3-flame-graph draws,
// {"name":"root","value":TOTAL,"children":[{"name":...,"value":...,
// "children":[...]}, ...]}, where a node's value is its total: its own
// count and its children's (d3-flame-graph sums no values itself). `perf
// script report flamegraph` writes a tree of the same shape whose values
// are the nodes' own counts, for d3-flame-graph's selfValue(true); this
// one is for its default, selfValue(false).
//
// The tree is built from the stacks (collapse/stack_trie.h) and written at
// the end, since a node's total is known only after its last stack; it
// holds a node per distinct frame path. Children come in the order their
// first stack came: the folded lines' order.
#ifndef FLAMEFOLD_EXPORT_D3_TREE_H_
#define FLAMEFOLD_EXPORT_D3_TREE_H_

#include <memory>

#include "base/output.h"
#include "collapse/stack_writer.h"

namespace flamefold {

std::unique_ptr<StackWriter> MakeD3Writer(OutputSink* out);

}  // namespace flamefold

#endif  // FLAMEFOLD_EXPORT_D3_TREE_H_
