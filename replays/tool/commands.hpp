#pragma once
// The subcommands of carom-replay. Each registers its options on the app and
// returns the function that runs it; the function returns the exit code.
#include <functional>

#include <CLI/CLI.hpp>

namespace carom::tool {

// Exit codes, the same for every command (README, `--help`).
inline constexpr int kExitOk = 0;
inline constexpr int kExitDivergence = 1;
inline constexpr int kExitUnreadable = 2;

// A subcommand and what runs it when it is the one given.
struct Command {
    CLI::App* app;
    std::function<int()> run;
};

Command add_record(CLI::App& app);
Command add_info(CLI::App& app);
Command add_verify(CLI::App& app);
Command add_diff(CLI::App& app);
Command add_export(CLI::App& app);
Command add_bots(CLI::App& app);
// Built with the viewer (CAROM_REPLAY_VIEWER; play needs ncursesw too); else
// add_missing registers a stand-in that says so and exits 2.
Command add_play(CLI::App& app);
Command add_cast(CLI::App& app);
Command add_missing(CLI::App& app, const char* name, const char* what);
// Built with the network programs (libsodium's base64); the page's parts
// come from `make web`.
Command add_html(CLI::App& app);
// Built with the network programs (SQLite; not in the cross builds).
Command add_index(CLI::App& app);
Command add_find(CLI::App& app);

}  // namespace carom::tool
