#include "perfdata/sample_unwinder.h"

namespace flamefold {

// The file-backed mappings of one address space, as the DWARF unwinder
// reads them (each DSO's binary found as the symbols were).
class SampleUnwinder::View : public UnwindMaps {
 public:
  View(const Maps* maps, SymbolResolver* symbols)
      : maps_(maps), symbols_(symbols) {}
  /// perf's unwind__prepare_access: the address space is unwound only
  /// once one of its mappings is an object perf can open as ELF (else its
  /// dwarf samples get no user frame at all, not even the sampled one).
  bool Ready() {
    if (ready_ || checked_ == maps_->version()) return ready_;
    checked_ = maps_->version();
    ready_ = maps_->Any([this](const Map& m) {
      return !m.identity && m.dso && symbols_->HasElfObject(m.dso);
    });
    return ready_;
  }

  bool Find(uint64_t addr, UnwindMapping* out) override {
    const Map* m = maps_->Find(addr);
    if (!m) return false;
    *out = UnwindMapping{};
    out->start = m->start;
    out->end = m->end;
    out->pgoff = m->pgoff;
    if (m->identity || !m->dso || m->dso->kind != DsoKind::kUser) {
      return true;  // no file: anonymous memory, [stack], a JIT map
    }
    symbols_->Load(m->dso);
    out->lowest_start = maps_->LowestStart(m->dso);
    out->file = m->dso->binary;
    return true;
  }

 private:
  const Maps* maps_;
  SymbolResolver* symbols_;
  bool ready_ = false;
  uint64_t checked_ = UINT64_MAX;
};

SampleUnwinder::SampleUnwinder(SymbolResolver* symbols,
                               const RegisterMap* arch)
    : symbols_(symbols), arch_(arch) {}
SampleUnwinder::~SampleUnwinder() = default;

UnwindResult SampleUnwinder::Unwind(const Thread& t, const PerfAttr& a,
                                    const PerfSample& s, size_t max_frames,
                                    std::vector<uint64_t>* ips) {
  Slot& slot = slots_[t.maps.get()];
  if (!slot.unwinder) {
    slot.keep = t.maps;
    slot.view = std::make_unique<View>(t.maps.get(), symbols_);
    slot.unwinder =
        std::make_unique<DwarfUnwinder>(arch_, slot.view.get(), &files_);
  }
  UnwindSample us{a.sample_regs_user, &s.user_regs, s.user_stack};
  if (!slot.view->Ready()) {
    ips->clear();
    uint64_t pc = 0;  // the user-space address the registers hold
    PerfRegister(us.regs_mask, *us.regs, arch_->perf_ip, &pc);
    return {UnwindStop::kNoObject, pc};
  }
  return slot.unwinder->Unwind(us, max_frames, ips);
}

}  // namespace flamefold
