// The built-in key-value store's server: one per job, normally in process 0,
// serving TcpKeyValueStore clients for multi-process bootstrap.
#ifndef PJRTX_RUNTIME_COORDINATION_KEY_VALUE_SERVER_H_
#define PJRTX_RUNTIME_COORDINATION_KEY_VALUE_SERVER_H_

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "runtime/coordination/framed_socket.h"

namespace pjrtx {

// Serves each connection on its own thread: a job has at most a few
// thousand processes, each holding one or two connections, and blocking
// Get/Barrier replies are then simply condition-variable waits.
//
// Thread-safe. The destructor stops accepting, wakes every held Get and
// Barrier (their clients see UNAVAILABLE), closes every connection and joins
// every thread; it does not wait for client timeouts.
class KeyValueServer {
 public:
  // `bind_address` is "host:port"; port 0 picks a free port. Binds loopback
  // by default so nothing off the machine can reach the store unless asked.
  // INVALID_ARGUMENT for a malformed address or an unresolvable host;
  // UNAVAILABLE when the address cannot be bound (e.g. in use).
  static absl::StatusOr<std::unique_ptr<KeyValueServer>> Start(
      absl::string_view bind_address = "127.0.0.1:0");

  ~KeyValueServer();
  KeyValueServer(const KeyValueServer&) = delete;
  KeyValueServer& operator=(const KeyValueServer&) = delete;

  // The bound "host:port", with the actual port when 0 was asked for.
  std::string address() const { return address_; }

 private:
  struct BarrierState {
    int num_processes = 0;
    int arrived = 0;
    // Bumped when a round completes, so a name can be reused for the next
    // barrier and waiters of the finished round can tell they are released.
    int64_t generation = 0;
  };

  KeyValueServer(int listen_fd, int wake_read_fd, int wake_write_fd,
                 std::string address);

  void AcceptLoop();
  void Serve(int id, std::shared_ptr<FramedSocket> socket);
  std::vector<std::string> Handle(const std::vector<std::string>& request);
  std::vector<std::string> HandleGet(const std::string& key,
                                     int64_t timeout_ms);
  std::vector<std::string> HandleBarrier(const std::string& name,
                                         int num_processes, int64_t timeout_ms);
  // Joins connection threads that have finished; called with mu_ unheld.
  void ReapFinished();

  const int listen_fd_;
  // A self-pipe: writing to it wakes the accept loop's poll() at shutdown.
  const int wake_read_fd_;
  const int wake_write_fd_;
  const std::string address_;
  std::thread accept_thread_;

  std::mutex mu_;
  // Signalled on every Put, every barrier round completion and at shutdown.
  std::condition_variable changed_;
  bool stopping_ = false;
  std::map<std::string, std::string> values_;
  std::map<std::string, BarrierState> barriers_;
  int next_connection_id_ = 0;
  // Kept so the destructor can shut each one down and wake its reader.
  std::map<int, std::shared_ptr<FramedSocket>> connections_;
  std::map<int, std::thread> threads_;
  std::vector<int> finished_;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_COORDINATION_KEY_VALUE_SERVER_H_
