#include "report/d3_tree.h"

#include <string>
#include <vector>

#include "base/json.h"
#include "collapse/stack_trie.h"
#include "report/stack_frames.h"

namespace flamefold {

namespace {

class D3Writer : public StackWriter {
 public:
  explicit D3Writer(OutputSink* out) : out_(out), trie_(&frames_.names()) {}

  void Add(std::string_view stack, const PerlNumber& weight,
           uint64_t samples) override {
    NodeId node = StackTrie::kRoot;
    for (SymbolId id : frames_.Intern(stack)) node = trie_.ChildOf(node, id);
    trie_.AddCounts(node, weight, samples);
  }

  bool Finish(const Diag& /*diag*/) override {
    SumTotals();
    ListChildren();
    WriteTree();
    return true;
  }

 private:
  // Each node's total: its own weight and its descendants'. A child is
  // made after its parent, so its id is larger: one sweep down the ids
  // finishes each node before its parent takes its total.
  void SumTotals() {
    const size_t nodes = trie_.node_count();
    totals_.assign(nodes, PerlNumber());
    for (size_t n = nodes; n-- > 1;) {
      totals_[n].Add(trie_.weight(static_cast<NodeId>(n)));
      totals_[trie_.parent(static_cast<NodeId>(n))].Add(totals_[n]);
    }
    totals_[StackTrie::kRoot].Add(trie_.weight(StackTrie::kRoot));
  }
  // children_[first_child_[n] .. first_child_[n + 1]) are n's children, in
  // id order (the order of their first stacks).
  void ListChildren() {
    const size_t nodes = trie_.node_count();
    first_child_.assign(nodes + 1, 0);
    for (size_t n = 1; n < nodes; ++n) {
      first_child_[trie_.parent(static_cast<NodeId>(n)) + 1]++;
    }
    for (size_t n = 0; n < nodes; ++n) first_child_[n + 1] += first_child_[n];
    std::vector<uint32_t> next(first_child_.begin(), first_child_.end() - 1);
    children_.assign(nodes > 0 ? nodes - 1 : 0, 0);
    for (size_t n = 1; n < nodes; ++n) {
      children_[next[trie_.parent(static_cast<NodeId>(n))]++] =
          static_cast<NodeId>(n);
    }
  }
  // Writes the nodes depth first, without recursion (stacks may be deep):
  // `open` holds, for each node whose children are being written, the
  // index of its next child.
  void WriteTree() {
    struct Open {
      NodeId node;
      uint32_t next;
    };
    std::vector<Open> open;
    OpenNode(StackTrie::kRoot, "root");
    open.push_back({StackTrie::kRoot, first_child_[StackTrie::kRoot]});
    while (!open.empty()) {
      Open& top = open.back();
      if (top.next == first_child_[top.node + 1]) {
        buf_ += "]}";
        open.pop_back();
        continue;
      }
      if (top.next > first_child_[top.node]) buf_ += ',';
      const NodeId child = children_[top.next++];
      OpenNode(child, frames_.name(trie_.frame(child)));
      open.push_back({child, first_child_[child]});
      if (buf_.size() >= 4096) {
        out_->Write(buf_);
        buf_.clear();
      }
    }
    buf_ += '\n';
    out_->Write(buf_);
  }
  void OpenNode(NodeId node, std::string_view name) {
    buf_ += "{\"name\":";
    AppendJsonString(name, &buf_);
    buf_ += ",\"value\":";
    AppendJsonNumber(totals_[node], &buf_);
    buf_ += ",\"children\":[";
  }

  OutputSink* out_;
  StackFrames frames_;
  StackTrie trie_;
  std::vector<PerlNumber> totals_;
  std::vector<uint32_t> first_child_;
  std::vector<NodeId> children_;
  std::string buf_;
};

}  // namespace

std::unique_ptr<StackWriter> MakeD3Writer(OutputSink* out) {
  return std::make_unique<D3Writer>(out);
}

}  // namespace flamefold
