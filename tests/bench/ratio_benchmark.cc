#include "tests/bench/ratio_benchmark.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace pjrtx::bench {
namespace {

double TimeCalls(const std::function<bool()>& fn, int iterations,
                 bool* failed) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    if (!fn()) *failed = true;
  }
  std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  return elapsed.count() / iterations;
}

}  // namespace

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

RatioResult CompareAlternating(const std::function<bool()>& subject,
                               const std::function<bool()>& anchor,
                               int iterations, int trials, bool* failed) {
  trials = std::max(trials, 5);
  TimeCalls(subject, 1, failed);
  TimeCalls(anchor, 1, failed);
  std::vector<double> ratios, subject_times, anchor_times;
  for (int t = 0; t < trials; ++t) {
    double s, a;
    if (t % 2 == 0) {
      s = TimeCalls(subject, iterations, failed);
      a = TimeCalls(anchor, iterations, failed);
    } else {
      a = TimeCalls(anchor, iterations, failed);
      s = TimeCalls(subject, iterations, failed);
    }
    ratios.push_back(a / s);
    subject_times.push_back(s);
    anchor_times.push_back(a);
  }
  RatioResult result;
  result.median_ratio = Median(ratios);
  result.min_ratio = *std::min_element(ratios.begin(), ratios.end());
  result.max_ratio = *std::max_element(ratios.begin(), ratios.end());
  result.subject_seconds = Median(subject_times);
  result.anchor_seconds = Median(anchor_times);
  return result;
}

void PrintResult(const std::string& name, const RatioResult& result,
                 const std::string& extra) {
  std::printf("RESULT %s ratio=%.3f min=%.3f max=%.3f%s%s\n", name.c_str(),
              result.median_ratio, result.min_ratio, result.max_ratio,
              extra.empty() ? "" : " ", extra.c_str());
  std::fflush(stdout);
}

}  // namespace pjrtx::bench
