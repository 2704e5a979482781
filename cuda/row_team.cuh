// Who reads a row when truncation misses. A row's whole-row passes (the
// second top-p gather, the value-binned histogram and the bin's gather)
// run on a team: the one-block kernel's block alone (SoloRow), or a split
// row's S blocks, each over its own part (SplitTeam, split_kernel.cuh).
// The deciding block posts a pass, runs it over its part and collects the
// others' results; integer counts and masses add up in any order, so a
// team's result is the lone block's, bit for bit.
#pragma once

#include "keys.cuh"

namespace qrita {

// A pass the deciding block hands to its team.
struct TeamTask {
  enum Kind : uint32_t {
    kGather = 1,     // gather the candidates at or above key `arg`, with the rest mass
    kHistogram = 2,  // count and weigh the entries below top_v in value bins
    kGatherBin = 3,  // gather value bin `arg`, writing -Inf over what the cut drops
  };
  uint32_t kind;
  uint32_t arg;
  float bins_lo, bins_scale;  // ValueBins
  float top_v;                // the candidates' smallest value (+Inf: none)
  float max_value;            // MassScale's

  __device__ static TeamTask gather(uint32_t key_thr) { return TeamTask{kGather, key_thr, 0, 0, 0, 0}; }
};

// The one-block kernel: the block reads the whole row itself, so posting
// and collecting are nothing.
struct SoloRow {
  static constexpr bool kWholeRow = true;  // the part is the row: gathers may load ahead

  __device__ uint32_t lo(uint32_t) const { return 0; }
  __device__ uint32_t hi(uint32_t n) const { return n; }

  __device__ void post(const TeamTask&) {}
  template <class Policy, class Sh>
  __device__ void collect_histogram(Sh&, mass_t*) {}
  template <class Policy, bool kStats, class Sh>
  __device__ void collect_candidates(Sh&) {}
};

// How a team is passed: the empty SoloRow by value (by reference, its
// address taken, it lived in local memory, stored at every row: the
// one-block kernel 0.3-1.3 % slower, PERFLOG run 65), a split row's team by
// reference (copied, the split kernel spilled more: 1.6-1.8 % slower at
// B=64).
template <class Team>
struct TeamParam {
  using type = Team&;
};
template <>
struct TeamParam<SoloRow> {
  using type = SoloRow;
};
template <class Team>
using team_param_t = typename TeamParam<Team>::type;

}  // namespace qrita
