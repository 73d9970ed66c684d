#include "perfdata/record_order.h"

#include <algorithm>

namespace flamefold {
namespace {

// Sorts `keys` by merging the ascending runs they are made of: the queue
// holds what is left of the last round (sorted) and then, per CPU buffer,
// records in time order, so there are few runs and a general sort did
// several times the work.
template <typename Key>
void SortRuns(std::vector<Key>* keys, std::vector<Key>* scratch,
              std::vector<size_t>* runs) {
  std::vector<Key>& v = *keys;
  runs->assign(1, 0);
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i] < v[i - 1]) runs->push_back(i);
  }
  runs->push_back(v.size());
  while (runs->size() > 2) {
    scratch->resize(v.size());
    size_t out = 1;
    for (size_t r = 0; r + 1 < runs->size(); r += 2) {
      size_t lo = (*runs)[r], mid = (*runs)[r + 1];
      size_t hi = r + 2 < runs->size() ? (*runs)[r + 2] : mid;
      std::merge(v.begin() + lo, v.begin() + mid, v.begin() + mid,
                 v.begin() + hi, scratch->begin() + lo);
      (*runs)[out++] = hi;
    }
    runs->resize(out);
    v.swap(*scratch);
  }
}

}  // namespace

bool RecordOrder::Add(const PerfRecord& rec, uint64_t time, std::string* err) {
  if (time == 0 || time == UINT64_MAX) return deliver_(rec, err);
  max_time_ = std::max(max_time_, time);
  Queued& q = queue_.emplace_back(Queued{time, rec.offset, rec.body, nullptr,
                                          rec.type, rec.attr, rec.misc});
  if (!rec.stable) {
    q.owned = std::make_unique<std::string>(rec.body);
    q.body = *q.owned;
  }
  return true;
}

bool RecordOrder::FinishRound(std::string* err) {
  if (!FlushUpTo(next_flush_, err)) return false;
  next_flush_ = max_time_;
  return true;
}

// Delivers the queued records up to `limit` in time order, those of equal
// times in the order they came. The sort moves small (time, index) keys, not
// the records.
bool RecordOrder::FlushUpTo(uint64_t limit, std::string* err) {
  order_.clear();
  for (size_t i = 0; i < queue_.size(); ++i) {
    order_.push_back({queue_[i].time, static_cast<uint32_t>(i)});
  }
  SortRuns(&order_, &scratch_, &runs_);
  size_t n = 0;
  for (; n < order_.size() && order_[n].first <= limit; ++n) {
    const Queued& q = queue_[order_[n].second];
    // A copy's bytes go with the queue; the reader's own stay.
    PerfRecord rec{q.type, q.misc, q.body, q.offset, q.owned == nullptr,
                   q.attr};
    if (!deliver_(rec, err)) return false;
  }
  kept_.clear();
  for (size_t i = n; i < order_.size(); ++i) {
    kept_.push_back(std::move(queue_[order_[i].second]));
  }
  queue_.swap(kept_);
  return true;
}

}  // namespace flamefold
