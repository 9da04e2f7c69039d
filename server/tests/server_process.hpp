#pragma once
// A real carom-server process for the hosting tests: started with arguments
// and extra environment, its stderr in a log file, its ready file read for the
// ports, and stopped with a signal within a bounded time.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace carom::test {

class ServerProcess {
  public:
    ServerProcess(std::vector<std::string> args, std::vector<std::string> env = {}) {
        dir_ = std::filesystem::temp_directory_path() /
               ("carom-hosting-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
        std::filesystem::create_directories(dir_);
        args.insert(args.begin(), CAROM_SERVER_BIN);
        for (const char* a : {"--bind", "127.0.0.1", "--port", "0", "--ready-file"})
            args.emplace_back(a);
        args.push_back((dir_ / "ready.json").string());
        pid_ = ::fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            const int log =
                ::open((dir_ / "server.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(log, 2);
            for (const std::string& e : env)
                ::putenv(const_cast<char*>(e.c_str()));
            std::vector<char*> argv;
            for (std::string& a : args)
                argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (std::chrono::steady_clock::now() < deadline) {
            std::ifstream in(dir_ / "ready.json");
            if (in) {
                ready_ = nlohmann::json::parse(in, nullptr, false);
                if (!ready_.is_discarded() && ready_.contains("port")) return;
            }
            if (exited()) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        throw std::runtime_error("carom-server did not become ready: " + log());
    }
    ~ServerProcess() {
        if (!status_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    const nlohmann::json& ready() const { return ready_; }
    std::uint16_t http_port() const { return ready_.at("http_port").get<std::uint16_t>(); }
    std::uint16_t udp_port() const { return ready_.at("port").get<std::uint16_t>(); }
    void signal(int sig) const { ::kill(pid_, sig); }

    // The exit status after `sig`, or nullopt if it did not exit within `limit`.
    std::optional<int> stop(int sig, std::chrono::seconds limit = std::chrono::seconds(10)) {
        ::kill(pid_, sig);
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < deadline) {
            if (exited()) return status_;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return std::nullopt;
    }

    std::string log() const {
        std::ifstream in(dir_ / "server.log");
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

  private:
    bool exited() {
        if (status_) return true;
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
        status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return true;
    }
    static int& counter() {
        static int n = 0;
        return n;
    }

    std::filesystem::path dir_;
    pid_t pid_ = -1;
    std::optional<int> status_;
    nlohmann::json ready_;
};

}  // namespace carom::test
