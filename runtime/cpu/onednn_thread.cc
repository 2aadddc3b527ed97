#include "runtime/cpu/onednn_thread.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace pjrtx::cpu {
namespace {

// A caller's work and whether it has run, guarded by the thread's mutex.
struct Job {
  absl::FunctionRef<void()> work;
  bool done = false;
};

class OneDnnThread {
 public:
  OneDnnThread() {
    std::thread thread([this] { Run(); });
    id_ = thread.get_id();
    thread.detach();
  }

  void Call(absl::FunctionRef<void()> work) {
    if (std::this_thread::get_id() == id_) {
      work();
      return;
    }
    Job job{work};
    std::unique_lock<std::mutex> lock(mu_);
    jobs_.push_back(&job);
    ready_.notify_one();
    finished_.wait(lock, [&job] { return job.done; });
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      ready_.wait(lock, [this] { return !jobs_.empty(); });
      Job* job = jobs_.front();
      jobs_.pop_front();
      lock.unlock();
      job->work();
      lock.lock();
      job->done = true;
      // Every waiter checks its own job; few ever wait at once.
      finished_.notify_all();
    }
  }

  std::thread::id id_;  // Written before any caller can see the object.
  std::mutex mu_;
  std::condition_variable ready_;
  std::condition_variable finished_;
  std::deque<Job*> jobs_;  // Guarded by mu_.
};

}  // namespace

void RunOnOneDnnThread(absl::FunctionRef<void()> work) {
  // Never destroyed: the thread outlives static destruction at exit, idle.
  static OneDnnThread* const thread = new OneDnnThread();
  thread->Call(work);
}

}  // namespace pjrtx::cpu
