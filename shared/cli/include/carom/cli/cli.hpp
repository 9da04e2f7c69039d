#pragma once
// The command-line contract of every carom program:
// - a bad argument or value exits 2 with one line on stderr, naming the
//   program and the problem (CLI11's own codes, 100 and up, never escape);
// - --version prints the carom version, the protocol version and the replay
//   format and core versions;
// - numeric options are range-checked with finite(): NaN and infinities are
//   refused, which CLI::Range lets through;
// - output that could not be written (a full disk, a closed pipe's error)
//   makes the exit code non-zero.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace carom::cli {

inline constexpr int kExitUsage = 2;
// Standard output or standard error could not be written.
inline constexpr int kExitOutputFailed = 2;

// "carom 0.1.0 (protocol 5, replay format 2, replay core 3)"
std::string version_text();

// Adds --version to `app` and exit-code wording shared by every program.
void add_version(CLI::App& app);

// Parses (after exit_nonzero_on_output_error for the program in argv[0]);
// returns nullopt to go on, or the exit code to return at once
// (0 for --help and --version, kExitUsage for anything refused, after one line
// "<program>: <reason> (see --help)" on stderr).
std::optional<int> parse(CLI::App& app, int argc, char** argv);

// The same for an error found after parsing (a value out of place, an
// address that does not resolve): prints one line and returns kExitUsage.
int usage_error(const CLI::App& app, const std::string& reason);

// A value within [min, max]; NaN and infinities are refused.
CLI::Validator finite(double min, double max);
// A finite value >= min.
CLI::Validator at_least(double min);

// Makes a failed write to stdout or stderr a non-zero exit: at exit, stdout is
// flushed and, when either stream had an error, the process ends with
// kExitOutputFailed (after a line on stderr when it still takes one).
void exit_nonzero_on_output_error(const std::string& program);

}  // namespace carom::cli
