// The measurement rule every pjrtx benchmark follows: subject and anchor
// alternate in the same run, at least five times, and the result is the
// median ratio with its min and max, printed as
//   RESULT <name> ratio=<median> min=<min> max=<max> ...
#ifndef PJRTX_TESTS_BENCH_RATIO_BENCHMARK_H_
#define PJRTX_TESTS_BENCH_RATIO_BENCHMARK_H_

#include <functional>
#include <string>
#include <vector>

namespace pjrtx::bench {

struct RatioResult {
  double median_ratio = 0;  // anchor time / subject time: >1 is faster.
  double min_ratio = 0;
  double max_ratio = 0;
  double subject_seconds = 0;  // Median time of one subject call.
  double anchor_seconds = 0;   // Median time of one anchor call.
};

// Runs `subject` and `anchor` `iterations` times per trial, alternating
// which goes first, for `trials` trials (at least 5), after one warm-up
// call of each. A call that fails makes `failed` true.
RatioResult CompareAlternating(const std::function<bool()>& subject,
                               const std::function<bool()>& anchor,
                               int iterations, int trials, bool* failed);

// Prints the RESULT line, with extra "key=value" fields appended.
void PrintResult(const std::string& name, const RatioResult& result,
                 const std::string& extra);

double Median(std::vector<double> values);

}  // namespace pjrtx::bench

#endif  // PJRTX_TESTS_BENCH_RATIO_BENCHMARK_H_
