#include "runtime/cli/launch_command.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

extern char** environ;

namespace pjrtx::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr char kUsage[] =
    "usage: pjrtx launch -n N [--grace-seconds S] -- PROGRAM [ARGS]...\n"
    "  Runs N processes of PROGRAM on this machine, process i with\n"
    "  PJRTX_NUM_PROCESSES=N, PJRTX_PROCESS_ID=i and\n"
    "  PJRTX_COORDINATOR=127.0.0.1:PORT, a free loopback port where process 0\n"
    "  hosts the coordination service (an already set PJRTX_COORDINATOR is\n"
    "  passed through). Output lines are prefixed with the process id: '[i] "
    "'.\n"
    "  When a process fails the others get SIGTERM, and SIGKILL after S\n"
    "  seconds (default 5); the exit code is the first failure's (128+signal\n"
    "  for a signal).\n";

constexpr int kMaxProcesses = 1024;
constexpr double kDefaultGraceSeconds = 5;
constexpr double kMaxGraceSeconds = 24 * 3600;
// A line longer than this is written in pieces, so that one process cannot
// grow the launcher's memory without bound.
constexpr size_t kMaxLineBytes = 64 * 1024;
// Once every process has exited, how long output that their leftovers (in
// another process group) still hold open is waited for.
constexpr auto kDrainTimeout = std::chrono::seconds(1);

// Written by the signal handler: the wake-up pipe makes poll() return, the
// counters say which interruption arrived.
int g_wake_write_fd = -1;
volatile sig_atomic_t g_interrupts = 0;
volatile sig_atomic_t g_interrupt_signal = 0;

void OnSignal(int signal) {
  const int saved_errno = errno;
  if (signal != SIGCHLD) {
    g_interrupt_signal = signal;
    g_interrupts = g_interrupts + 1;
  }
  const char byte = 0;
  if (write(g_wake_write_fd, &byte, 1) < 0) {
    // The pipe is full: a wake-up is already pending.
  }
  errno = saved_errno;
}

struct LaunchOptions {
  int num_processes = 0;
  double grace_seconds = kDefaultGraceSeconds;
  std::vector<std::string> command;
};

absl::StatusOr<LaunchOptions> ParseArgs(const std::vector<std::string>& args) {
  LaunchOptions options;
  std::optional<std::string> num_processes;
  size_t i = 0;
  for (; i < args.size() && args[i] != "--"; ++i) {
    const std::string& arg = args[i];
    std::optional<std::string> grace;
    if (arg == "-n" || arg == "--grace-seconds") {
      if (i + 1 >= args.size() || args[i + 1] == "--") {
        return absl::InvalidArgumentError(
            absl::StrCat("'", arg, "' needs a value"));
      }
      (arg == "-n" ? num_processes : grace) = args[++i];
    } else if (absl::StartsWith(arg, "-n=")) {
      num_processes = arg.substr(3);
    } else if (absl::StartsWith(arg, "--grace-seconds=")) {
      grace = arg.substr(16);
    } else if (absl::StartsWith(arg, "-")) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '", arg, "'"));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("expected '--' before the program, got '", arg, "'"));
    }
    if (grace.has_value() &&
        (!absl::SimpleAtod(*grace, &options.grace_seconds) ||
         !std::isfinite(options.grace_seconds) || options.grace_seconds < 0 ||
         options.grace_seconds > kMaxGraceSeconds)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--grace-seconds '", *grace,
          "' is not a number of seconds from 0 to ", kMaxGraceSeconds));
    }
  }
  if (!num_processes.has_value()) {
    return absl::InvalidArgumentError("missing -n N, the number of processes");
  }
  if (!absl::SimpleAtoi(*num_processes, &options.num_processes) ||
      options.num_processes < 1 || options.num_processes > kMaxProcesses) {
    return absl::InvalidArgumentError(
        absl::StrCat("-n '", *num_processes,
                     "' is not a whole number from 1 to ", kMaxProcesses));
  }
  if (i == args.size()) {
    return absl::InvalidArgumentError("missing '--' and the program to run");
  }
  options.command.assign(args.begin() + i + 1, args.end());
  if (options.command.empty() || options.command[0].empty()) {
    return absl::InvalidArgumentError("missing the program to run after '--'");
  }
  return options;
}

// Whether execvp() would find `program`: a path when it has a '/', else a
// name searched in PATH.
bool ProgramExists(const std::string& program) {
  auto executable = [](const std::string& path) {
    struct stat info;
    return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
           access(path.c_str(), X_OK) == 0;
  };
  if (absl::StrContains(program, '/')) return executable(program);
  const char* path = getenv("PATH");
  for (absl::string_view dir :
       absl::StrSplit(path != nullptr ? path : "/bin:/usr/bin", ':')) {
    if (executable(absl::StrCat(dir.empty() ? "." : dir, "/", program))) {
      return true;
    }
  }
  return false;
}

// A loopback TCP port that was free a moment ago. Process 0 binds it again
// soon after; another program taking it in between is unlikely on a
// developer machine and shows up as process 0 failing to bind.
absl::StatusOr<int> PickFreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("socket: ", strerror(errno)));
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    const int error = errno;
    close(fd);
    return absl::InternalError(
        absl::StrCat("no free loopback port: ", strerror(error)));
  }
  close(fd);
  return ntohs(address.sin_port);
}

void WriteAll(int fd, absl::string_view data) {
  while (!data.empty()) {
    const ssize_t written = write(fd, data.data(), data.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;  // A closed stdout drops the output.
    data.remove_prefix(static_cast<size_t>(written));
  }
}

void Report(absl::string_view message) {
  WriteAll(STDERR_FILENO, absl::StrCat("pjrtx launch: ", message, "\n"));
}

std::string Describe(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int signal = WTERMSIG(wait_status);
    return absl::StrCat("was killed by signal ", signal, " (",
                        strsignal(signal), ")");
  }
  return absl::StrCat("exited with code ", WEXITSTATUS(wait_status));
}

int ExitCode(int wait_status) {
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return WEXITSTATUS(wait_status);
}

std::string Processes(int count) {
  return absl::StrCat(count, count == 1 ? " process" : " processes");
}

// One stream (stdout or stderr) of one process, read from a pipe.
struct Output {
  int process_id = 0;
  int fd = -1;           // The pipe's read end; -1 once at end of file.
  int destination = -1;  // The launcher's own stream.
  std::string pending;   // Bytes of a line not yet ended.
};

struct Process {
  int id = 0;
  pid_t pid = -1;  // Also its process group.
  bool running = false;
  Output outputs[2];
};

// The job: starts the processes, relays their output and stops them all
// when one fails or the launcher is interrupted.
class Launcher {
 public:
  Launcher(LaunchOptions options, std::string coordinator, int wake_read_fd)
      : options_(std::move(options)),
        coordinator_(std::move(coordinator)),
        wake_read_fd_(wake_read_fd) {}

  int Run() {
    processes_.resize(options_.num_processes);
    for (int i = 0; i < options_.num_processes; ++i) {
      processes_[i].id = i;
      absl::Status started = Start(processes_[i]);
      if (!started.ok()) {
        Report(absl::StrCat("cannot start rank ", i, ": ", started.message()));
        failure_exit_code_ = 1;
        Stop();
        Kill();
        break;
      }
    }
    Loop();
    if (failure_exit_code_.has_value()) return *failure_exit_code_;
    if (handled_interrupts_ > 0) return 128 + g_interrupt_signal;
    return 0;
  }

 private:
  absl::Status Start(Process& process) {
    std::vector<std::string> environment;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      absl::string_view variable(*entry);
      if (absl::StartsWith(variable, "PJRTX_NUM_PROCESSES=") ||
          absl::StartsWith(variable, "PJRTX_PROCESS_ID=") ||
          absl::StartsWith(variable, "PJRTX_COORDINATOR=")) {
        continue;
      }
      environment.emplace_back(variable);
    }
    environment.push_back(
        absl::StrCat("PJRTX_NUM_PROCESSES=", options_.num_processes));
    environment.push_back(absl::StrCat("PJRTX_PROCESS_ID=", process.id));
    environment.push_back(absl::StrCat("PJRTX_COORDINATOR=", coordinator_));
    std::vector<char*> argv, envp;
    for (std::string& arg : options_.command) argv.push_back(arg.data());
    argv.push_back(nullptr);
    for (std::string& variable : environment) envp.push_back(variable.data());
    envp.push_back(nullptr);
    const std::string exec_failed =
        absl::StrCat("pjrtx launch: cannot run '", options_.command[0], "': ");

    int pipes[2][2];
    for (int stream = 0; stream < 2; ++stream) {
      if (pipe2(pipes[stream], O_CLOEXEC) != 0) {
        const int error = errno;
        if (stream == 1) {
          close(pipes[0][0]);
          close(pipes[0][1]);
        }
        return absl::InternalError(absl::StrCat("pipe: ", strerror(error)));
      }
    }
    // The child must not run the launcher's handlers: a SIGTERM between fork
    // and exec would be swallowed. It resets them with these signals blocked
    // and gets any that came meanwhile once it unblocks them.
    sigset_t routed, previous_mask;
    sigemptyset(&routed);
    for (int signal : {SIGINT, SIGTERM, SIGCHLD}) sigaddset(&routed, signal);
    sigprocmask(SIG_BLOCK, &routed, &previous_mask);
    const pid_t pid = fork();
    if (pid == 0) {
      // Only async-signal-safe calls until exec.
      for (int signal : {SIGINT, SIGTERM, SIGCHLD, SIGPIPE}) {
        ::signal(signal, SIG_DFL);
      }
      sigprocmask(SIG_SETMASK, &previous_mask, nullptr);
      setpgid(0, 0);
      dup2(pipes[0][1], STDOUT_FILENO);
      dup2(pipes[1][1], STDERR_FILENO);
      execvpe(argv[0], argv.data(), envp.data());
      const char* reason = strerror(errno);
      WriteAll(STDERR_FILENO, exec_failed);
      WriteAll(STDERR_FILENO, reason);
      WriteAll(STDERR_FILENO, "\n");
      _exit(127);
    }
    const int fork_error = errno;
    sigprocmask(SIG_SETMASK, &previous_mask, nullptr);
    for (int stream = 0; stream < 2; ++stream) close(pipes[stream][1]);
    if (pid < 0) {
      for (int stream = 0; stream < 2; ++stream) close(pipes[stream][0]);
      return absl::InternalError(absl::StrCat("fork: ", strerror(fork_error)));
    }
    // Also here, so that the group exists before the launcher signals it
    // (the child's own call may not have run yet).
    setpgid(pid, pid);
    process.pid = pid;
    process.running = true;
    for (int stream = 0; stream < 2; ++stream) {
      fcntl(pipes[stream][0], F_SETFL, O_NONBLOCK);
      process.outputs[stream].process_id = process.id;
      process.outputs[stream].fd = pipes[stream][0];
      process.outputs[stream].destination =
          stream == 0 ? STDOUT_FILENO : STDERR_FILENO;
    }
    return absl::OkStatus();
  }

  void Loop() {
    std::optional<Clock::time_point> drain_deadline;
    while (true) {
      Reap();
      HandleInterrupts();
      if (kill_deadline_.has_value() && Clock::now() >= *kill_deadline_) {
        Kill();
      }
      if (Running() == 0) {
        if (!drain_deadline) drain_deadline = Clock::now() + kDrainTimeout;
        if (!AnyOutputOpen() || Clock::now() >= *drain_deadline) break;
      }
      std::vector<pollfd> fds{{wake_read_fd_, POLLIN, 0}};
      std::vector<Output*> outputs{nullptr};
      for (Process& process : processes_) {
        for (Output& output : process.outputs) {
          if (output.fd < 0) continue;
          fds.push_back({output.fd, POLLIN, 0});
          outputs.push_back(&output);
        }
      }
      std::optional<Clock::time_point> deadline = kill_deadline_;
      if (drain_deadline.has_value()) deadline = drain_deadline;
      int timeout_ms = -1;
      if (deadline.has_value()) {
        timeout_ms = static_cast<int>(std::max<int64_t>(
            0, std::chrono::ceil<std::chrono::milliseconds>(*deadline -
                                                            Clock::now())
                   .count()));
      }
      if (poll(fds.data(), fds.size(), timeout_ms) < 0) continue;  // EINTR.
      if (fds[0].revents != 0) {
        char bytes[64];
        while (read(wake_read_fd_, bytes, sizeof(bytes)) > 0) {
        }
      }
      for (size_t i = 1; i < fds.size(); ++i) {
        if (fds[i].revents != 0) {
          Read(*outputs[i]);
        }
      }
    }
    // Leftovers outside the process groups still hold these open: write
    // what came and stop reading.
    for (Process& process : processes_) {
      for (Output& output : process.outputs) CloseOutput(output);
    }
  }

  // Reaps the processes that have exited; the first failure stops the rest.
  void Reap() {
    for (Process& process : processes_) {
      if (!process.running) continue;
      int status = 0;
      pid_t reaped;
      do {
        reaped = waitpid(process.pid, &status, WNOHANG);
      } while (reaped < 0 && errno == EINTR);
      if (reaped != process.pid) continue;
      process.running = false;
      // Whatever it started and left in its group goes with it.
      kill(-process.pid, SIGKILL);
      // It wrote its last output before exiting: relay that first.
      for (Output& output : process.outputs) Read(output);
      const bool failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
      if (!failed || failure_exit_code_.has_value()) continue;
      failure_exit_code_ = ExitCode(status);
      if (stopping_) continue;  // Interrupted: it was told to stop.
      const int others = Running();
      Report(absl::StrCat(
          "rank ", process.id, " ", Describe(status),
          others == 0
              ? ""
              : absl::StrCat("; stopping the other ",
                             others == 1 ? "process" : Processes(others))));
      Stop();
    }
  }

  void HandleInterrupts() {
    const int interrupts = g_interrupts;
    if (interrupts == handled_interrupts_) return;
    handled_interrupts_ = interrupts;
    const int signal = g_interrupt_signal;
    if (!stopping_) {
      Report(absl::StrCat("received ", signal == SIGINT ? "SIGINT" : "SIGTERM",
                          "; stopping ", Processes(Running())));
      Stop();
    } else {
      Kill();  // Interrupted again, or during the grace period: no waiting.
    }
  }

  // SIGTERM to every running process group; SIGKILL after the grace period.
  void Stop() {
    stopping_ = true;
    for (const Process& process : processes_) {
      if (process.running) kill(-process.pid, SIGTERM);
    }
    kill_deadline_ = Clock::now() +
                     std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(options_.grace_seconds));
  }

  void Kill() {
    kill_deadline_.reset();
    int killed = 0;
    for (const Process& process : processes_) {
      if (!process.running) continue;
      kill(-process.pid, SIGKILL);
      ++killed;
    }
    if (killed > 0) {
      Report(absl::StrCat("sending SIGKILL to ", Processes(killed),
                          " still running"));
    }
  }

  int Running() const {
    return static_cast<int>(
        std::count_if(processes_.begin(), processes_.end(),
                      [](const Process& process) { return process.running; }));
  }

  bool AnyOutputOpen() const {
    for (const Process& process : processes_) {
      for (const Output& output : process.outputs) {
        if (output.fd >= 0) return true;
      }
    }
    return false;
  }

  // Reads what is there now and writes its complete lines, prefixed.
  void Read(Output& output) {
    char buffer[64 * 1024];
    while (output.fd >= 0) {
      const ssize_t n = read(output.fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) return;
      if (n <= 0) {
        CloseOutput(output);
        return;
      }
      output.pending.append(buffer, static_cast<size_t>(n));
      WriteLines(output);
    }
  }

  void WriteLines(Output& output) {
    const std::string prefix = absl::StrCat("[", output.process_id, "] ");
    std::string lines;
    size_t start = 0;
    for (size_t end;
         (end = output.pending.find('\n', start)) != std::string::npos;
         start = end + 1) {
      absl::StrAppend(
          &lines, prefix,
          absl::string_view(output.pending).substr(start, end + 1 - start));
    }
    output.pending.erase(0, start);
    if (output.pending.size() >= kMaxLineBytes) {
      absl::StrAppend(&lines, prefix, output.pending, "\n");
      output.pending.clear();
    }
    WriteAll(output.destination, lines);
  }

  // Writes a last line that has no end, then closes the pipe.
  void CloseOutput(Output& output) {
    if (output.fd < 0) return;
    if (!output.pending.empty()) {
      WriteAll(output.destination, absl::StrCat("[", output.process_id, "] ",
                                                output.pending, "\n"));
      output.pending.clear();
    }
    close(output.fd);
    output.fd = -1;
  }

  LaunchOptions options_;
  const std::string coordinator_;
  const int wake_read_fd_;
  std::vector<Process> processes_;
  bool stopping_ = false;
  std::optional<Clock::time_point> kill_deadline_;
  std::optional<int> failure_exit_code_;
  int handled_interrupts_ = 0;
};

// Routes SIGINT, SIGTERM and SIGCHLD to the wake-up pipe while it lives, and
// ignores SIGPIPE so that a closed stdout does not end the launcher before
// its processes.
class SignalRouting {
 public:
  explicit SignalRouting(int wake_write_fd) {
    g_wake_write_fd = wake_write_fd;
    g_interrupts = 0;
    g_interrupt_signal = 0;
    struct sigaction action {};
    action.sa_handler = OnSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &action, &previous_[i]);
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &previous_[3]);
  }
  ~SignalRouting() {
    for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &previous_[i], nullptr);
    g_wake_write_fd = -1;
  }
  SignalRouting(const SignalRouting&) = delete;
  SignalRouting& operator=(const SignalRouting&) = delete;

 private:
  static constexpr int kSignals[4] = {SIGINT, SIGTERM, SIGCHLD, SIGPIPE};
  struct sigaction previous_[4];
};

}  // namespace

int RunLaunch(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--") break;
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
  }
  absl::StatusOr<LaunchOptions> options = ParseArgs(args);
  if (!options.ok()) {
    std::cerr << "pjrtx launch: " << options.status().message() << "\n"
              << kUsage;
    return 2;
  }
  if (!ProgramExists(options->command[0])) {
    Report(absl::StrCat("program '", options->command[0], "' not found",
                        absl::StrContains(options->command[0], '/')
                            ? " or not executable"
                            : " in PATH"));
    return 127;
  }
  std::string coordinator;
  if (const char* set = getenv("PJRTX_COORDINATOR");
      set != nullptr && *set != '\0') {
    coordinator = set;
  } else {
    absl::StatusOr<int> port = PickFreePort();
    if (!port.ok()) {
      Report(port.status().message());
      return 1;
    }
    coordinator = absl::StrCat("127.0.0.1:", *port);
  }
  int wake[2];
  if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    Report(absl::StrCat("pipe: ", strerror(errno)));
    return 1;
  }
  std::cout.flush();
  int exit_code;
  {
    SignalRouting routing(wake[1]);
    exit_code = Launcher(*std::move(options), coordinator, wake[0]).Run();
  }
  close(wake[0]);
  close(wake[1]);
  return exit_code;
}

}  // namespace pjrtx::cli
