// carom-stadium: a HaxBall stadium file (.hbs) as a carom map file (JSON).
#include <cstdio>
#include <fstream>
#include <string>

#include "carom/cli/cli.hpp"
#include "carom/maps/map_file.hpp"
#include "carom/stadium/hbs.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "Converts a HaxBall stadium (.hbs) into a carom map file (JSON). Fields that "
        "only set HaxBall's camera or background are listed on stderr; a field carom "
        "cannot play is refused with its name and the reason (exit 1).",
        "carom-stadium"};
    carom::cli::add_version(app);
    std::string input;
    std::string output;
    carom::stadium::ImportOptions options;
    app.add_option("stadium", input, "The .hbs file")->required();
    app.add_option("-o,--output", output, "Where to write the map (default: standard output)");
    app.add_option("--team-size", options.team_size,
                   "Players a team (default: as many as the spawn points, or 3)")
        ->check(CLI::Range(0, 16));
    app.add_option("--match-seconds", options.match_seconds, "Length of a match")
        ->check(CLI::Range(1, 24 * 3600))
        ->capture_default_str();
    app.add_option("--score-limit", options.score_limit, "Goals that end a match (0: none)")
        ->check(CLI::Range(0, 1000))
        ->capture_default_str();
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;

    auto imported = carom::stadium::load_stadium_file(input, options);
    if (!imported) {
        std::fprintf(stderr, "carom-stadium: %s\n", imported.error().message.c_str());
        return 1;
    }
    for (const std::string& note : imported->notes)
        std::fprintf(stderr, "carom-stadium: %s: note: %s\n", input.c_str(), note.c_str());
    auto json = carom::maps::map_to_json(imported->map);
    if (!json) {
        std::fprintf(stderr, "carom-stadium: %s\n", json.error().message.c_str());
        return 1;
    }
    if (output.empty()) {
        std::fputs(json->c_str(), stdout);
        return 0;
    }
    std::ofstream out(output, std::ios::binary);
    out << *json;
    out.close();
    if (!out) {
        std::fprintf(stderr, "carom-stadium: %s: cannot write the map\n", output.c_str());
        return 1;
    }
    return 0;
}
