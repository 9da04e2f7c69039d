// carom-replay: the replay tool. See `carom-replay --help`.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "carom/cli/cli.hpp"
#include "commands.hpp"

namespace carom::tool {

Command add_missing(CLI::App& app, const char* name, const char* what) {
    CLI::App* sub = app.add_subcommand(name, std::string(what) + " (not in this build)");
    sub->allow_extras();
    const std::string command = name;
    return {sub, [command] {
                std::fprintf(stderr,
                             "carom-replay %s: this build has no viewer (configure with "
                             "CAROM_NETWORK=ON, CAROM_REPLAY_VIEWER=ON and ncursesw)\n",
                             command.c_str());
                return kExitUnreadable;
            }};
}

}  // namespace carom::tool

int main(int argc, char** argv) {
    CLI::App app{
        "carom-replay: record, inspect, verify, compare and export carom replays.\n"
        "Exit codes: 0 = ok (verify: identical), 1 = divergence, 2 = unreadable or corrupt "
        "file, or bad arguments."};
    app.require_subcommand(1);
    std::vector<carom::tool::Command> commands{
        carom::tool::add_record(app), carom::tool::add_info(app),   carom::tool::add_verify(app),
        carom::tool::add_diff(app),   carom::tool::add_export(app), carom::tool::add_bots(app)};
#ifdef CAROM_HAVE_PLAY
    commands.push_back(carom::tool::add_play(app));
#else
    commands.push_back(carom::tool::add_missing(app, "play", "Watch a replay in the terminal"));
#endif
#ifdef CAROM_HAVE_CAST
    commands.push_back(carom::tool::add_cast(app));
#else
    commands.push_back(
        carom::tool::add_missing(app, "cast", "Write a replay as an asciicast v2 recording"));
#endif
#ifdef CAROM_HAVE_HTML
    commands.push_back(carom::tool::add_html(app));
#else
    commands.push_back(carom::tool::add_missing(
        app, "html", "Write a replay as one web page that re-simulates and draws it"));
#endif
#ifdef CAROM_HAVE_INDEX
    commands.push_back(carom::tool::add_index(app));
    commands.push_back(carom::tool::add_find(app));
#else
    commands.push_back(
        carom::tool::add_missing(app, "index", "Rebuild a replay directory's index"));
    commands.push_back(carom::tool::add_missing(app, "find", "Find matches in a replay directory"));
#endif
    carom::cli::add_version(app);
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;
    try {
        for (const carom::tool::Command& c : commands) {
            if (c.app->parsed()) return c.run();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "carom-replay: %s\n", e.what());
        return carom::tool::kExitUnreadable;
    }
    return carom::tool::kExitOk;
}
