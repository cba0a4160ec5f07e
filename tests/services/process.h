// A server binary run by a test: started with arguments, its stderr kept in
// a file, its bound port read from --port-file, stopped with a signal.
//
// Thread-safety: one owning thread.
#ifndef VERTEX_TESTS_SERVICES_PROCESS_H_
#define VERTEX_TESTS_SERVICES_PROCESS_H_

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace vertex::test_support {

class ServerProcess {
 public:
  // Starts `binary` with `args` plus --listen 127.0.0.1:0 and --port-file
  // under `dir`, and waits up to 60 s for the port. port() is 0 when it did
  // not come up; log() says why.
  ServerProcess(const std::string& binary, std::vector<std::string> args, const std::string& dir,
                const std::string& name)
      : log_path_(dir + "/" + name + ".log"), port_path_(dir + "/" + name + ".port") {
    std::remove(port_path_.c_str());
    args.insert(args.begin(), {binary, "--listen", "127.0.0.1:0", "--port-file", port_path_});
    pid_ = fork();
    if (pid_ == 0) {
      FILE* log = std::fopen(log_path_.c_str(), "a");
      if (log != nullptr) dup2(fileno(log), 2);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    for (int i = 0; i < 600 && port_ == 0; ++i) {
      std::ifstream in(port_path_);
      if (!(in >> port_)) port_ = 0;
      if (port_ == 0) {
        if (waitpid(pid_, &status_, WNOHANG) == pid_) {
          pid_ = -1;
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  ~ServerProcess() { Stop(SIGKILL); }

  int port() const { return port_; }
  // The process id; -1 when not running.
  pid_t pid() const { return pid_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string log() const {
    std::ifstream in(log_path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // Sends `signal` and waits for the exit; returns the wait status (-1 when
  // not running).
  int Stop(int signal = SIGTERM) {
    if (pid_ <= 0) return -1;
    kill(pid_, signal);
    waitpid(pid_, &status_, 0);
    pid_ = -1;
    return status_;
  }

 private:
  std::string log_path_, port_path_;
  pid_t pid_ = -1;
  int port_ = 0;
  int status_ = 0;
};

}  // namespace vertex::test_support

#endif  // VERTEX_TESTS_SERVICES_PROCESS_H_
