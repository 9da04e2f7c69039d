// carom-replay: the replay tool. See `carom-replay --help`.
#include <cstdio>
#include <exception>
#include <vector>

#include "commands.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "carom-replay: record, inspect, verify, compare and export carom replays.\n"
        "Exit codes: 0 = ok (verify: identical), 1 = divergence, 2 = unreadable or corrupt "
        "file, or bad arguments."};
    app.require_subcommand(1);
    const std::vector<carom::tool::Command> commands{
        carom::tool::add_record(app), carom::tool::add_info(app), carom::tool::add_verify(app),
        carom::tool::add_diff(app), carom::tool::add_export(app), carom::tool::add_bots(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : carom::tool::kExitUnreadable;
    }
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
