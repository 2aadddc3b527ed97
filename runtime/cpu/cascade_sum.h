// A floating-point sum whose rounding error grows with log n rather than n.
//
// Adding n values one after another loses up to about n/2 ulps of the
// total (4e-6 relative on a million values drawn from [0, 1), 20 times the
// error of the scheme here). CascadeSum keeps eight interleaved partial
// sums over blocks of 256 values (the eight adds are independent, so they
// run as one vector add) and combines the blocks' sums pairwise, the way a
// binary counter carries. Which sum an element joins depends only on its
// position in the sequence, so a sequence fed in pieces of any length gives
// the same bits as one fed whole.
#ifndef PJRTX_RUNTIME_CPU_CASCADE_SUM_H_
#define PJRTX_RUNTIME_CPU_CASCADE_SUM_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace pjrtx::cpu {

// The values of one block. A sequence shorter than this is summed in lanes
// only and gains little over a plain loop.
inline constexpr int64_t kCascadeBlock = 256;

template <typename T>
class CascadeSum {
  static_assert(std::is_floating_point_v<T>);

 public:
  // Continues the sequence with values[0, count).
  void Add(const T* values, int64_t count) {
    while (count > 0) {
      const int64_t room = kCascadeBlock - in_block_;
      const int64_t take = std::min(count, room);
      AddWithinBlock(values, take);
      values += take;
      count -= take;
      if (in_block_ == kCascadeBlock) CarryBlock();
    }
  }

  // The sum of everything added so far; -0 when nothing was (the identity
  // of addition that keeps the sign of a sum of negative zeros).
  T Total() const {
    T total = in_block_ > 0 ? CombineLanes() : kIdentity;
    for (int level = 0; level < kLevels; ++level) {
      if ((blocks_ >> level) & 1) total = levels_[level] + total;
    }
    return total;
  }

 private:
  static constexpr int kLanes = 8;
  static constexpr int kLevels = 64;
  static constexpr T kIdentity = T(-0.0);

  void AddWithinBlock(const T* values, int64_t count) {
    int64_t i = 0;
    // Up to the next lane-0 position one at a time, then whole groups.
    for (; i < count && in_block_ % kLanes != 0; ++i, ++in_block_) {
      lanes_[in_block_ % kLanes] += values[i];
    }
    for (; i + kLanes <= count; i += kLanes, in_block_ += kLanes) {
      for (int lane = 0; lane < kLanes; ++lane)
        lanes_[lane] += values[i + lane];
    }
    for (; i < count; ++i, ++in_block_) {
      lanes_[in_block_ % kLanes] += values[i];
    }
  }

  T CombineLanes() const {
    return ((lanes_[0] + lanes_[1]) + (lanes_[2] + lanes_[3])) +
           ((lanes_[4] + lanes_[5]) + (lanes_[6] + lanes_[7]));
  }

  // The full block's sum joins the counter; equal-sized sums pair up.
  void CarryBlock() {
    T carry = CombineLanes();
    std::fill(lanes_, lanes_ + kLanes, kIdentity);
    in_block_ = 0;
    int level = 0;
    while ((blocks_ >> level) & 1) {
      carry = levels_[level] + carry;
      blocks_ &= ~(uint64_t{1} << level);
      ++level;
    }
    levels_[level] = carry;
    blocks_ |= uint64_t{1} << level;
  }

  T lanes_[kLanes] = {kIdentity, kIdentity, kIdentity, kIdentity,
                      kIdentity, kIdentity, kIdentity, kIdentity};
  int64_t in_block_ = 0;
  // levels_[k] is the sum of 2^k blocks while bit k of blocks_ is set.
  T levels_[kLevels] = {};
  uint64_t blocks_ = 0;
};

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_CASCADE_SUM_H_
