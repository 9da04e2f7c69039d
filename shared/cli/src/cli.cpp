#include "carom/cli/cli.hpp"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "carom/protocol/packet.hpp"
#include "carom/replay/replay.hpp"

namespace carom::cli {
namespace {

std::string program_name(const CLI::App& app) {
    const CLI::App* top = &app;
    while (top->get_parent() != nullptr)
        top = top->get_parent();
    const std::string name = std::filesystem::path(top->get_name()).filename().string();
    return name.empty() ? "carom" : name;
}

// CLI11 ends some messages with a newline or joins several lines; one line is the contract.
std::string one_line(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    for (char& c : text)
        if (c == '\n') c = ' ';
    return text;
}

// 1048576 rather than 1.04858e+06; 0.1 rather than 0.100000.
std::string number(double value) {
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char text[32];
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        std::snprintf(text, sizeof text, "%.0f", value);
    else
        std::snprintf(text, sizeof text, "%.15g", value);
    return text;
}

// Set once, read at exit: plain storage, so no destructor runs before the check.
char g_program[64] = "carom";

void check_output_at_exit() {
    const bool out_failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
    const int out_errno = errno;
    const bool err_failed = std::ferror(stderr) != 0;
    if (!out_failed && !err_failed) return;
    if (!err_failed)
        std::fprintf(stderr, "%s: cannot write standard output: %s\n", g_program,
                     out_errno != 0 ? std::strerror(out_errno) : "write error");
    ::_exit(kExitOutputFailed);
}

CLI::Validator range_validator(double min, double max, std::string description) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            double value = 0.0;
            try {
                std::size_t used = 0;
                value = std::stod(text, &used);
                if (used != text.size()) return "'" + text + "' is not a number";
            } catch (const std::exception&) {
                return "'" + text + "' is not a number";
            }
            if (!std::isfinite(value)) return "'" + text + "' is not a finite number";
            if (value < min || value > max) {
                return text + " is outside [" + number(min) + ", " + number(max) + "]";
            }
            return {};
        },
        std::move(description));
}

}  // namespace

std::string version_text() {
    return std::string("carom ") + CAROM_VERSION + " (protocol " +
           std::to_string(protocol::kProtocolVersion) + ", replay format " +
           std::to_string(replay::kFormatVersion) + ", replay core " +
           std::to_string(replay::kCoreVersion) + ")";
}

void add_version(CLI::App& app) {
    app.set_version_flag("--version", version_text(),
                         "Print the carom, protocol and replay versions");
}

std::optional<int> parse(CLI::App& app, int argc, char** argv) {
    // Before parsing: --help and --version write too.
    if (argc > 0) exit_nonzero_on_output_error(std::filesystem::path(argv[0]).filename().string());
    try {
        app.parse(argc, argv);
        return std::nullopt;
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        return usage_error(app, e.what());
    }
}

int usage_error(const CLI::App& app, const std::string& reason) {
    std::fprintf(stderr, "%s: %s (see --help)\n", program_name(app).c_str(),
                 one_line(reason).c_str());
    return kExitUsage;
}

CLI::Validator finite(double min, double max) {
    return range_validator(min, max, "[" + number(min) + " - " + number(max) + "]");
}

CLI::Validator at_least(double min) {
    return range_validator(min, HUGE_VAL, ">= " + number(min));
}

void exit_nonzero_on_output_error(const std::string& program) {
    std::snprintf(g_program, sizeof g_program, "%s", program.c_str());
    static const bool registered = std::atexit(check_output_at_exit) == 0;
    (void)registered;
}

}  // namespace carom::cli
