#include "runtime/coordination/tcp_key_value_store.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/coordination/key_value_server.h"

namespace pjrtx {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

int64_t MillisSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() -
                                                               start)
      .count();
}

std::unique_ptr<KeyValueServer> StartServer() {
  absl::StatusOr<std::unique_ptr<KeyValueServer>> server =
      KeyValueServer::Start();
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? *std::move(server) : nullptr;
}

std::unique_ptr<TcpKeyValueStore> ConnectTo(const KeyValueServer& server) {
  absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> store =
      TcpKeyValueStore::Connect(server.address(), 2000);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

TEST(KeyValueServerTest, ReportsTheChosenPort) {
  std::unique_ptr<KeyValueServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  EXPECT_THAT(server->address(), HasSubstr("127.0.0.1:"));
  EXPECT_NE(server->address(), "127.0.0.1:0");
}

TEST(TcpKeyValueStoreTest, RoundTripsBinaryValues) {
  std::unique_ptr<KeyValueServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::unique_ptr<TcpKeyValueStore> store = ConnectTo(*server);
  ASSERT_NE(store, nullptr);
  const std::string value("a\0b\xff\0\n", 6);
  const std::string key("k\0ey", 4);
  ASSERT_TRUE(store->Put(key, value).ok());
  absl::StatusOr<std::string> got = store->Get(key, 1000);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, value);
  // Overwrite, and an empty value.
  ASSERT_TRUE(store->Put(key, "").ok());
  got = store->Get(key, 1000);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, "");
  // A value set by one client is seen by another.
  std::unique_ptr<TcpKeyValueStore> other = ConnectTo(*server);
  ASSERT_NE(other, nullptr);
  ASSERT_TRUE(other->Put("shared", std::string(100000, 'x')).ok());
  got = store->Get("shared", 1000);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, std::string(100000, 'x'));
}

TEST(TcpKeyValueStoreTest, GetBlocksUntilAnotherThreadPuts) {
  std::unique_ptr<KeyValueServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::unique_ptr<TcpKeyValueStore> store = ConnectTo(*server);
  ASSERT_NE(store, nullptr);
  std::atomic<int64_t> put_at_ms{-1};
  const Clock::time_point start = Clock::now();
  // The same store from two threads: the Put must not wait behind the Get.
  std::thread putter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_TRUE(store->Put("late", "value").ok());
    put_at_ms = MillisSince(start);
  });
  absl::StatusOr<std::string> got = store->Get("late", 3000);
  const int64_t got_at_ms = MillisSince(start);
  putter.join();
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, "value");
  EXPECT_GE(got_at_ms, 140);
  // Released promptly once set: no polling interval in the way.
  EXPECT_LT(got_at_ms - put_at_ms, 100);
}

TEST(TcpKeyValueStoreTest, GetTimesOutNamingKeyAndTimeout) {
  std::unique_ptr<KeyValueServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::unique_ptr<TcpKeyValueStore> store = ConnectTo(*server);
  ASSERT_NE(store, nullptr);
  const Clock::time_point start = Clock::now();
  absl::StatusOr<std::string> got = store->Get("missing", 200);
  const int64_t elapsed_ms = MillisSince(start);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(got.status().message(), HasSubstr("'missing'"));
  EXPECT_THAT(got.status().message(), HasSubstr("200 ms"));
  EXPECT_GE(elapsed_ms, 195);
  EXPECT_LT(elapsed_ms, 700);
  // The connection is still usable after a timed-out Get.
  EXPECT_TRUE(store->Put("missing", "now").ok());
  EXPECT_EQ(store->Get("missing", 0).value_or(""), "now");
}

TEST(TcpKeyValueStoreTest, BarrierReleasesAllProcessesTogether) {
  std::unique_ptr<KeyValueServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  constexpr int kProcesses = 4;
  std::atomic<int> arrived{0};
  std::atomic<int> released_early{0};
  std::vector<absl::Status> results(kProcesses);
  std::vector<std::thread> threads;
  for (int i = 0; i < kProcesses; ++i) {
    threads.emplace_back([&, i] {
      std::unique_ptr<TcpKeyValueStore> store = ConnectTo(*server);
      ASSERT_NE(store, nullptr);
      // Stagger arrivals so an early release would be visible.
      std::this_thread::sleep_for(std::chrono::milliseconds(40 * i));
      ++arrived;
      results[i] = store->Barrier("start", kProcesses, 3000);
      if (arrived.load() != kProcesses) ++released_early;
      // The name is reusable for the next barrier.
      if (results[i].ok())
        results[i] = store->Barrier("start", kProcesses, 3000);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kProcesses; ++i) {
    EXPECT_TRUE(results[i].ok()) << i << ": " << results[i];
  }
  EXPECT_EQ(released_early.load(), 0);
}

TEST(TcpKeyValueStoreTest, BarrierTimeoutSaysHowManyArrived) {
  std::unique_ptr<KeyValueServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::unique_ptr<TcpKeyValueStore> first = ConnectTo(*server);
  std::unique_ptr<TcpKeyValueStore> second = ConnectTo(*server);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  absl::Status first_result;
  std::thread other([&] { first_result = first->Barrier("b", 3, 1000); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const Clock::time_point start = Clock::now();
  absl::Status result = second->Barrier("b", 3, 200);
  EXPECT_LT(MillisSince(start), 700);
  other.join();
  EXPECT_EQ(result.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(result.message(), HasSubstr("2 of 3 processes arrived"));
  EXPECT_THAT(result.message(), HasSubstr("'b'"));
  // `second` withdrew, so `first` saw only itself.
  EXPECT_EQ(first_result.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(first_result.message(), HasSubstr("1 of 3 processes arrived"));
}

TEST(TcpKeyValueStoreTest, BarrierRejectsMismatchedProcessCounts) {
  std::unique_ptr<KeyValueServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::unique_ptr<TcpKeyValueStore> first = ConnectTo(*server);
  std::unique_ptr<TcpKeyValueStore> second = ConnectTo(*server);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  std::thread waiter([&] { first->Barrier("m", 2, 300).IgnoreError(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  absl::Status result = second->Barrier("m", 3, 300);
  waiter.join();
  EXPECT_EQ(result.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(result.message(), HasSubstr("called with 3 processes"));
  EXPECT_THAT(result.message(), HasSubstr("expected 2"));
  EXPECT_EQ(second->Barrier("z", 0, 10).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(TcpKeyValueStoreTest, ConnectWaitsForALateServer) {
  // Find a free port, release it, and start the server there later.
  std::string address;
  {
    std::unique_ptr<KeyValueServer> probe = StartServer();
    ASSERT_NE(probe, nullptr);
    address = probe->address();
  }
  std::unique_ptr<KeyValueServer> server;
  std::thread starter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    absl::StatusOr<std::unique_ptr<KeyValueServer>> started =
        KeyValueServer::Start(address);
    ASSERT_TRUE(started.ok()) << started.status();
    server = *std::move(started);
  });
  const Clock::time_point start = Clock::now();
  absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> store =
      TcpKeyValueStore::Connect(address, 3000);
  const int64_t elapsed_ms = MillisSince(start);
  starter.join();
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_GE(elapsed_ms, 150);
  EXPECT_TRUE((*store)->Put("k", "v").ok());
  EXPECT_EQ((*store)->Get("k", 100).value_or(""), "v");
}

TEST(TcpKeyValueStoreTest, ConnectFailsWithUnavailableNamingAddress) {
  std::string address;
  {
    std::unique_ptr<KeyValueServer> probe = StartServer();
    ASSERT_NE(probe, nullptr);
    address = probe->address();
  }
  const Clock::time_point start = Clock::now();
  absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> store =
      TcpKeyValueStore::Connect(address, 200);
  EXPECT_LT(MillisSince(start), 700);
  EXPECT_EQ(store.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(store.status().message(), HasSubstr(address));
}

TEST(TcpKeyValueStoreTest, ServerShutdownFailsWaitingGetPromptly) {
  std::unique_ptr<KeyValueServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::unique_ptr<TcpKeyValueStore> store = ConnectTo(*server);
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::string> got;
  int64_t got_at_ms = 0;
  const Clock::time_point start = Clock::now();
  std::thread getter([&] {
    got = store->Get("never", 30000);
    got_at_ms = MillisSince(start);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  server.reset();
  const int64_t destroyed_at_ms = MillisSince(start);
  getter.join();
  EXPECT_EQ(got.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(got.status().message(), HasSubstr(store->address()));
  EXPECT_LT(destroyed_at_ms, 1000);
  EXPECT_LT(got_at_ms, 1000);
  // Later calls fail too, rather than hang.
  EXPECT_EQ(store->Put("k", "v").code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(store->Get("k", 50).status().code(),
            absl::StatusCode::kUnavailable);
}

TEST(TcpKeyValueStoreTest, RejectsMalformedAddresses) {
  for (const char* address : {"nohost", "1.2.3.4:notaport", "localhost:65536",
                              ":80", "host:", "host:-1", "[::1"}) {
    absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> store =
        TcpKeyValueStore::Connect(address, 100);
    EXPECT_EQ(store.status().code(), absl::StatusCode::kInvalidArgument)
        << address;
    EXPECT_THAT(store.status().message(), HasSubstr(address));
    EXPECT_THAT(store.status().message(), HasSubstr("host:port"));
    absl::StatusOr<std::unique_ptr<KeyValueServer>> server =
        KeyValueServer::Start(address);
    EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument)
        << address;
    EXPECT_THAT(server.status().message(), HasSubstr(address));
  }
  EXPECT_EQ(TcpKeyValueStore::Connect("127.0.0.1:0", 100).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(TcpKeyValueStoreTest, RejectsNegativeTimeouts) {
  std::unique_ptr<KeyValueServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::unique_ptr<TcpKeyValueStore> store = ConnectTo(*server);
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::string> got = store->Get("k", -5);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("-5"));
}

}  // namespace
}  // namespace pjrtx
