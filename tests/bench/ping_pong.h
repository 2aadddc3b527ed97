// The latency anchor of the benchmarks: a round trip between two threads.
#ifndef PJRTX_TESTS_BENCH_PING_PONG_H_
#define PJRTX_TESTS_BENCH_PING_PONG_H_

#include <condition_variable>
#include <mutex>
#include <thread>

namespace pjrtx::bench {

// Anchor for latency: one round trip between two threads through a mutex
// and a condition variable.
class PingPong {
 public:
  PingPong() : thread_([this] { Serve(); }) {}
  ~PingPong() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  bool RoundTrip() {
    std::unique_lock<std::mutex> lock(mu_);
    ++request_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return reply_ == request_; });
    return true;
  }

 private:
  void Serve() {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      cv_.wait(lock, [&] { return stop_ || request_ != reply_; });
      if (stop_) return;
      reply_ = request_;
      cv_.notify_all();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  long request_ = 0, reply_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace pjrtx::bench

#endif  // PJRTX_TESTS_BENCH_PING_PONG_H_
