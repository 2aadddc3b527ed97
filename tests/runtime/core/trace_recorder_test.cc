#include "runtime/core/base/trace_recorder.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

// The recorder reads PJRTX_TRACE_FILE once per process, so every test here
// sets it (to the same path) before its first TraceRecorder::Get(), and no
// other test in this binary may trace. The "off" cases run in death-test
// children, which start a fresh process.

namespace pjrtx {
namespace {

using std::chrono::microseconds;
using std::chrono::nanoseconds;
using std::chrono::steady_clock;

const std::string& TracePath() {
  static const std::string* const path = new std::string(
      absl::StrCat(testing::TempDir(), "pjrtx_trace_test_", getpid(), ".json"));
  return *path;
}

// Removes the trace file once every test has run.
class RemoveTraceFile : public testing::Environment {
 public:
  void TearDown() override { std::remove(TracePath().c_str()); }
};
[[maybe_unused]] testing::Environment* const remove_trace_file =
    testing::AddGlobalTestEnvironment(new RemoveTraceFile);

TraceRecorder* EnabledRecorder() {
  setenv("PJRTX_TRACE_FILE", TracePath().c_str(), /*overwrite=*/1);
  return TraceRecorder::Get();
}

// The recorder keeps every interval for the life of the process, so names
// are made unique to tell this run's intervals apart under --gtest_repeat.
std::string UniqueName(const std::string& base) {
  static int counter = 0;
  return absl::StrCat(base, " #", counter++);
}

// A minimal JSON reader: strict enough that a badly escaped string or a
// missing comma in the trace fails the test.
struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  double number = 0;
  std::string string;
  std::vector<Json> items;        // Array elements, or object values.
  std::vector<std::string> keys;  // Object keys, parallel to items.

  const Json* Find(std::string_view key) const {
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) return &items[i];
    }
    return nullptr;
  }
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  // The document, or nullopt when `text` is not exactly one JSON value.
  std::optional<Json> Parse() {
    std::optional<Json> value = Value();
    SkipSpace();
    if (!value || pos_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && std::string_view(" \t\r\n").find(
                                      text_[pos_]) != std::string_view::npos) {
      ++pos_;
    }
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool EatWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  std::optional<std::string> String() {
    if (!Eat('"')) return std::nullopt;
    std::string out;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) return std::nullopt;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) return std::nullopt;
      const char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out.push_back(e);
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return std::nullopt;
          const std::string hex(text_.substr(pos_, 4));
          pos_ += 4;
          char* end = nullptr;
          const long code = std::strtol(hex.c_str(), &end, 16);
          // The recorder only escapes control characters this way.
          if (end != hex.c_str() + 4 || code >= 0x80) return std::nullopt;
          out.push_back(static_cast<char>(code));
          break;
        }
        default:
          return std::nullopt;
      }
    }
    return std::nullopt;
  }

  std::optional<Json> Value() {
    SkipSpace();
    if (pos_ >= text_.size()) return std::nullopt;
    Json json;
    const char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      json.kind = Json::kObject;
      if (Eat('}')) return json;
      do {
        std::optional<std::string> key = String();
        if (!key || !Eat(':')) return std::nullopt;
        std::optional<Json> value = Value();
        if (!value) return std::nullopt;
        json.keys.push_back(*std::move(key));
        json.items.push_back(*std::move(value));
      } while (Eat(','));
      if (!Eat('}')) return std::nullopt;
    } else if (c == '[') {
      ++pos_;
      json.kind = Json::kArray;
      if (Eat(']')) return json;
      do {
        std::optional<Json> value = Value();
        if (!value) return std::nullopt;
        json.items.push_back(*std::move(value));
      } while (Eat(','));
      if (!Eat(']')) return std::nullopt;
    } else if (c == '"') {
      std::optional<std::string> s = String();
      if (!s) return std::nullopt;
      json.kind = Json::kString;
      json.string = *std::move(s);
    } else if (EatWord("true") || EatWord("false")) {
      json.kind = Json::kBool;
    } else if (EatWord("null")) {
      json.kind = Json::kNull;
    } else {
      const std::string rest(text_.substr(pos_, 64));
      char* end = nullptr;
      json.number = std::strtod(rest.c_str(), &end);
      if (end == rest.c_str()) return std::nullopt;
      json.kind = Json::kNumber;
      pos_ += end - rest.c_str();
    }
    return json;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// The trace file, parsed; fails the test when it is not valid JSON of the
// expected top-level shape.
Json ReadTrace() {
  std::ifstream file(TracePath());
  std::stringstream contents;
  contents << file.rdbuf();
  std::optional<Json> json = JsonParser(contents.str()).Parse();
  EXPECT_TRUE(json.has_value()) << "not JSON:\n" << contents.str();
  if (!json) return Json();
  EXPECT_EQ(json->kind, Json::kObject);
  const Json* unit = json->Find("displayTimeUnit");
  EXPECT_TRUE(unit != nullptr && unit->string == "ms");
  const Json* events = json->Find("traceEvents");
  EXPECT_TRUE(events != nullptr && events->kind == Json::kArray);
  return events == nullptr ? Json() : *events;
}

std::string StringField(const Json& event, std::string_view key) {
  const Json* field = event.Find(key);
  return field != nullptr && field->kind == Json::kString ? field->string
                                                          : "<missing>";
}

double NumberField(const Json& event, std::string_view key) {
  const Json* field = event.Find(key);
  return field != nullptr && field->kind == Json::kNumber ? field->number
                                                          : std::nan("");
}

// The complete events named `name`.
std::vector<Json> Intervals(const Json& events, std::string_view name) {
  std::vector<Json> found;
  for (const Json& event : events.items) {
    if (StringField(event, "ph") == "X" && StringField(event, "name") == name) {
      found.push_back(event);
    }
  }
  return found;
}

// The metadata events named `name` (thread_name, process_name).
std::vector<Json> Metadata(const Json& events, std::string_view name) {
  std::vector<Json> found;
  for (const Json& event : events.items) {
    if (StringField(event, "ph") == "M" && StringField(event, "name") == name) {
      found.push_back(event);
    }
  }
  return found;
}

TEST(TraceRecorderTest, GetReadsTheEnvironmentOnce) {
  TraceRecorder* recorder = EnabledRecorder();
  ASSERT_NE(recorder, nullptr);
  EXPECT_EQ(recorder->path(), TracePath());
  // Later changes to the environment change nothing: the hooks rely on a
  // stable pointer.
  setenv("PJRTX_TRACE_FILE", "/elsewhere.json", /*overwrite=*/1);
  EXPECT_EQ(TraceRecorder::Get(), recorder);
  unsetenv("PJRTX_TRACE_FILE");
  EXPECT_EQ(TraceRecorder::Get(), recorder);
  EXPECT_EQ(recorder->path(), TracePath());
  EnabledRecorder();
}

TEST(TraceRecorderTest, FlushWritesOverlappingIntervalsOnTwoDevices) {
  TraceRecorder* recorder = EnabledRecorder();
  ASSERT_NE(recorder, nullptr);
  recorder->set_process_index(3);
  // Names a JSON writer must escape.
  const std::string compute_name = UniqueName("fused \"dot\"\\1\n\x01 on chip");
  const steady_clock::time_point t0 = steady_clock::now();
  recorder->Record(7, "compute", compute_name, t0,
                   t0 + microseconds(100) + nanoseconds(250));
  const std::string collective_name = UniqueName("all-reduce");
  recorder->Record(12, "collective", collective_name, t0 + microseconds(40),
                   t0 + microseconds(180));
  absl::Status flushed = recorder->Flush();
  recorder->set_process_index(0);
  ASSERT_TRUE(flushed.ok()) << flushed;

  const Json events = ReadTrace();
  const std::vector<Json> compute = Intervals(events, compute_name);
  const std::vector<Json> collective = Intervals(events, collective_name);
  ASSERT_EQ(compute.size(), 1u);
  ASSERT_EQ(collective.size(), 1u);
  EXPECT_EQ(StringField(compute[0], "cat"), "compute");
  EXPECT_EQ(StringField(collective[0], "cat"), "collective");
  EXPECT_EQ(NumberField(compute[0], "pid"), 3);
  EXPECT_EQ(NumberField(collective[0], "pid"), 3);
  EXPECT_EQ(NumberField(compute[0], "tid"), 7);
  EXPECT_EQ(NumberField(collective[0], "tid"), 12);
  // The origin is taken before anything is recorded, and times are
  // microseconds kept to the nanosecond.
  const double ts_compute = NumberField(compute[0], "ts");
  const double ts_collective = NumberField(collective[0], "ts");
  EXPECT_GE(ts_compute, 0);
  EXPECT_NEAR(ts_collective - ts_compute, 40.0, 1e-6);
  EXPECT_NEAR(NumberField(compute[0], "dur"), 100.25, 1e-9);
  EXPECT_NEAR(NumberField(collective[0], "dur"), 140.0, 1e-9);

  // One named track per device seen, in the process's group.
  for (int64_t device : {7, 12}) {
    int tracks = 0;
    for (const Json& event : Metadata(events, "thread_name")) {
      if (NumberField(event, "tid") != device) continue;
      ++tracks;
      EXPECT_EQ(NumberField(event, "pid"), 3);
      const Json* args = event.Find("args");
      ASSERT_NE(args, nullptr);
      EXPECT_EQ(StringField(*args, "name"), absl::StrCat("chip ", device));
    }
    EXPECT_EQ(tracks, 1) << "device " << device;
  }
  const std::vector<Json> processes = Metadata(events, "process_name");
  ASSERT_EQ(processes.size(), 1u);
  EXPECT_EQ(NumberField(processes[0], "pid"), 3);
  const Json* args = processes[0].Find("args");
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(StringField(*args, "name"), "process 3");
}

TEST(TraceRecorderTest, FlushRewritesTheWholeFile) {
  TraceRecorder* recorder = EnabledRecorder();
  ASSERT_NE(recorder, nullptr);
  const std::string first = UniqueName("first flush");
  const std::string second = UniqueName("second flush");
  const steady_clock::time_point t0 = steady_clock::now();
  recorder->Record(1, "compute", first, t0, t0 + microseconds(1));
  ASSERT_TRUE(recorder->Flush().ok());
  recorder->Record(1, "compute", second, t0, t0 + microseconds(1));
  ASSERT_TRUE(recorder->Flush().ok());
  const Json events = ReadTrace();
  EXPECT_EQ(Intervals(events, first).size(), 1u);
  EXPECT_EQ(Intervals(events, second).size(), 1u);
}

TEST(TraceRecorderTest, ScopedIntervalRecordsAtDestruction) {
  TraceRecorder* recorder = EnabledRecorder();
  ASSERT_NE(recorder, nullptr);
  const std::string lazy_name = UniqueName("scoped lazy");
  const std::string eager_name = UniqueName("scoped eager");
  int names_built = 0;
  {
    ScopedTraceInterval interval(5, "collective", [&] {
      ++names_built;
      return lazy_name;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(names_built, 1);
  { ScopedTraceInterval interval(6, "compute", eager_name); }
  ASSERT_TRUE(recorder->Flush().ok());
  const Json events = ReadTrace();
  const std::vector<Json> lazy = Intervals(events, lazy_name);
  ASSERT_EQ(lazy.size(), 1u);
  EXPECT_EQ(StringField(lazy[0], "cat"), "collective");
  EXPECT_EQ(NumberField(lazy[0], "tid"), 5);
  EXPECT_GE(NumberField(lazy[0], "dur"), 2000);
  const std::vector<Json> eager = Intervals(events, eager_name);
  ASSERT_EQ(eager.size(), 1u);
  EXPECT_EQ(NumberField(eager[0], "tid"), 6);
}

// Each case runs in a fresh process (the "threadsafe" style re-executes the
// binary), where TraceRecorder::Get() has not read the environment yet.
class TraceRecorderDeathTest : public testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
  void TearDown() override { EnabledRecorder(); }
};

TEST_F(TraceRecorderDeathTest, UnsetVariableMeansOff) {
  unsetenv("PJRTX_TRACE_FILE");
  EXPECT_EXIT(std::exit(TraceRecorder::Get() == nullptr ? 0 : 1),
              testing::ExitedWithCode(0), "");
}

TEST_F(TraceRecorderDeathTest, EmptyVariableMeansOff) {
  setenv("PJRTX_TRACE_FILE", "", /*overwrite=*/1);
  EXPECT_EXIT(
      {
        // Scoped intervals are then no-ops and never call the name builder.
        bool built = false;
        {
          ScopedTraceInterval interval(0, "compute", [&] {
            built = true;
            return std::string("x");
          });
        }
        std::exit(TraceRecorder::Get() == nullptr && !built ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
}

TEST_F(TraceRecorderDeathTest, UnwritablePathIsUnavailable) {
  setenv("PJRTX_TRACE_FILE", "/nonexistent-pjrtx-dir/trace.json",
         /*overwrite=*/1);
  EXPECT_EXIT(
      {
        TraceRecorder* recorder = TraceRecorder::Get();
        if (recorder == nullptr) std::exit(1);
        const absl::Status status = recorder->Flush();
        std::exit(status.code() == absl::StatusCode::kUnavailable &&
                          absl::StrContains(status.message(),
                                            "/nonexistent-pjrtx-dir/trace.json")
                      ? 0
                      : 2);
      },
      testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace pjrtx
