// The renderer against golden grids (shared/render/tests/golden/), and the exact
// cells and dots a disk lands on. CAROM_UPDATE_GOLDENS=1 rewrites the goldens
// instead of comparing (then read the diff before committing it).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "carom/maps/map_file.hpp"
#include "carom/render/render.hpp"

namespace carom::render {
namespace {

const std::filesystem::path kMaps = CAROM_MAPS_DIR;
const std::filesystem::path kGoldens = CAROM_GOLDEN_DIR;

game::Map arena() {
    auto found = maps::load_map_file(kMaps / "arena.json");
    REQUIRE(found.ok());
    return std::move(*found);
}

// A fixed mid-match scene: two pucks, two players a side, one of them you.
std::vector<DiskView> mid_match_disks() {
    return {
        {{60.0, 22.0}, 1.25, Ink::puck},      {{71.3, 40.6}, 1.25, Ink::puck},
        {{35.0, 30.0}, 2.0, Ink::own},        {{22.4, 15.2}, 2.0, Ink::team_left},
        {{85.0, 30.0}, 2.0, Ink::team_right}, {{98.7, 44.1}, 2.0, Ink::team_right},
    };
}

Hud mid_match_hud() {
    Hud hud;
    hud.score = {2, 1};
    hud.ticks_left = 83 * 60 + 5;
    hud.phase = Phase::goal;
    hud.banner = "GOAL! ann";
    hud.ping_ms = 42.0;
    hud.loss = 0.012;
    hud.kb_in_per_s = 4.1;
    hud.kb_out_per_s = 1.3;
    hud.server_tick = 12345;
    hud.note = "you: left";
    return hud;
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void check_golden(const std::string& name, const Grid& grid) {
    const std::string actual = grid.text() + "--- inks\n" + grid.ink_map();
    const std::filesystem::path path = kGoldens / (name + ".txt");
    if (const char* update = std::getenv("CAROM_UPDATE_GOLDENS"); update && *update == '1') {
        std::ofstream(path, std::ios::binary) << actual;
        MESSAGE("rewrote " << path);
        return;
    }
    REQUIRE_MESSAGE(std::filesystem::exists(path), "missing golden " << path);
    const std::string expected = read_file(path);
    CHECK_MESSAGE(actual == expected, "grid differs from " << path << ":\n" << actual);
}

struct Size {
    int width;
    int height;
};

}  // namespace

TEST_CASE("render_matches_golden_grids_for_each_size_in_utf8_and_ascii") {
    const game::Map map = arena();
    const std::vector<DiskView> disks = mid_match_disks();
    Scene scene;
    scene.map = &map;
    scene.disks = disks;
    scene.hud = mid_match_hud();
    scene.help = "WASD/arrows move  space kick  Tab roster  q quit";
    for (const Size size : {Size{80, 24}, Size{120, 40}, Size{40, 12}}) {
        for (const Glyphs glyphs : {Glyphs::braille, Glyphs::ascii}) {
            const std::string name = std::to_string(size.width) + "x" +
                                     std::to_string(size.height) +
                                     (glyphs == Glyphs::braille ? "-utf8" : "-ascii");
            CAPTURE(name);
            const Grid grid = render(scene, size.width, size.height, glyphs);
            REQUIRE(grid.width() == size.width);
            REQUIRE(grid.height() == size.height);
            check_golden(name, grid);
        }
    }
}

TEST_CASE("render_roster_overlay_matches_golden") {
    const game::Map map = arena();
    const std::vector<DiskView> disks = mid_match_disks();
    const std::vector<RosterLine> roster = {
        {"alice", game::Team::left, 2, false, true},
        {"bot1", game::Team::left, 0, true, false},
        {"bot4", game::Team::right, 1, true, false},
    };
    Scene scene;
    scene.map = &map;
    scene.disks = disks;
    scene.hud = mid_match_hud();
    scene.roster = roster;
    check_golden("80x24-roster", render(scene, 80, 24, Glyphs::braille));
}

TEST_CASE("render_is_a_pure_function_of_its_scene") {
    const game::Map map = arena();
    const std::vector<DiskView> disks = mid_match_disks();
    Scene scene;
    scene.map = &map;
    scene.disks = disks;
    scene.hud = mid_match_hud();
    CHECK(render(scene, 97, 31, Glyphs::braille) == render(scene, 97, 31, Glyphs::braille));
}

TEST_CASE("render_handles_any_window_size_without_a_map_or_with_a_tiny_one") {
    const game::Map map = arena();
    const std::vector<DiskView> disks = mid_match_disks();
    Scene scene;
    scene.map = &map;
    scene.disks = disks;
    scene.hud = mid_match_hud();
    scene.help = "help";
    for (int w = 0; w <= 12; ++w) {
        for (int h = 0; h <= 6; ++h) {
            const Grid grid = render(scene, w, h, Glyphs::braille);
            CHECK(grid.width() == w);
            CHECK(grid.height() == h);
        }
    }
    const Grid wide = render(scene, 500, 3, Glyphs::ascii);  // one arena row
    CHECK(wide.row_utf8(0).rfind("left 2 : 1 right", 0) == 0);
    scene.map = nullptr;
    CHECK(render(scene, 30, 5, Glyphs::braille).row_utf8(2) == std::string(30, ' '));
}

// A 20 × 20 field with no walls in 20 × 10 arena cells: 40 × 40 dots, two
// dots a unit, no centring offset. A disk smaller than a dot marks exactly
// the dot under its centre.
TEST_CASE("render_puts_a_disk_at_sub_cell_offsets_in_the_expected_cell_and_dot") {
    game::Map map;
    map.size = {20.0, 20.0};
    struct Case {
        double x, y;
        int cell_x, cell_y;  // cell_y counts from the grid top (row 0 is the HUD)
        char32_t braille;
    };
    const Case cases[] = {
        {0.3, 19.9, 0, 1, 0x2801},    // dot (0, 0): top left
        {0.6, 19.9, 0, 1, 0x2808},    // dot (1, 0): one dot right, same cell
        {1.1, 19.9, 1, 1, 0x2801},    // the next cell
        {0.3, 19.2, 0, 1, 0x2802},    // dot (0, 1)
        {0.3, 18.6, 0, 1, 0x2804},    // dot (0, 2)
        {0.8, 18.1, 0, 1, 0x2880},    // dot (1, 3): bottom right
        {0.3, 17.9, 0, 2, 0x2801},    // the cell below
        {10.2, 10.2, 10, 5, 0x2840},  // the middle of the field: dot (0, 3)
        {19.9, 0.1, 19, 10, 0x2880},  // bottom right corner
    };
    for (const Case& c : cases) {
        CAPTURE(c.x);
        CAPTURE(c.y);
        const DiskView disk{{c.x, c.y}, 0.1, Ink::own};
        Scene scene;
        scene.map = &map;
        scene.disks = {&disk, 1};
        scene.help = "h";
        const Grid grid = render(scene, 20, 12, Glyphs::braille);
        int marked = 0;
        for (int y = 1; y < 11; ++y)
            for (int x = 0; x < 20; ++x)
                marked += grid.at(x, y).ch != U' ' ? 1 : 0;
        CHECK(marked == 1);
        CHECK(grid.at(c.cell_x, c.cell_y).ch == c.braille);
        CHECK(grid.at(c.cell_x, c.cell_y).ink == Ink::own);
        const Grid ascii = render(scene, 20, 12, Glyphs::ascii);
        CHECK(ascii.at(c.cell_x, c.cell_y).ch == U'@');
    }
}

TEST_CASE("render_draws_a_disk_round_with_square_dots") {
    // Radius 2 at the centre of the 20 × 20 field: 4 × 4 units = 8 × 8 dots
    // across, so as many dots wide as tall.
    game::Map map;
    map.size = {20.0, 20.0};
    const DiskView disk{{10.0, 10.0}, 2.0, Ink::team_right};
    Scene scene;
    scene.map = &map;
    scene.disks = {&disk, 1};
    scene.help = "h";
    const Grid grid = render(scene, 20, 12, Glyphs::braille);
    int min_x = 99, max_x = -1, min_y = 99, max_y = -1;
    for (int y = 1; y < 11; ++y) {
        for (int x = 0; x < 20; ++x) {
            if (grid.at(x, y).ch == U' ') continue;
            min_x = std::min(min_x, x);
            max_x = std::max(max_x, x);
            min_y = std::min(min_y, y);
            max_y = std::max(max_y, y);
        }
    }
    // 8 dots = 4 cells across and 2 cells down: a cell is 2 dots wide, 4 tall.
    CHECK(max_x - min_x + 1 == 4);
    CHECK(max_y - min_y + 1 == 2);
}

TEST_CASE("hud_line_drops_the_least_important_figures_first") {
    const Hud hud = mid_match_hud();
    CHECK(hud_line(hud, 200) ==
          "left 2 : 1 right  1:24  GOAL! ann  ping 42 ms  loss 1.2%  4.1/1.3 kB/s  tick 12345  "
          "you: left");
    CHECK(hud_line(hud, 33) == "left 2 : 1 right  1:24  GOAL! ann");
    CHECK(hud_line(hud, 32) == "left 2 : 1 right  1:24");
    CHECK(hud_line(hud, 10).empty());
    Hud final_whistle;
    final_whistle.phase = Phase::final;
    CHECK(hud_line(final_whistle, 80) == "left 0 : 0 right  0:00  final");
    final_whistle.score = {2, 2};
    final_whistle.banner = "FINAL 2-2 DRAW";
    CHECK(hud_line(final_whistle, 80) == "left 2 : 2 right  0:00  FINAL 2-2 DRAW");
}

}  // namespace carom::render

namespace carom::render {
namespace {

// An imported HaxBall stadium: its arcs (rounded corners, curved nets, the
// centre circle hidden), straight lines and posts are drawn; planes are not.
TEST_CASE("render_draws_a_stadiums_arcs_lines_and_posts") {
    auto found = maps::load_map_file(std::filesystem::path(CAROM_STADIUMS_DIR) / "curves.hbs");
    REQUIRE_MESSAGE(found.ok(), (!found.ok() ? found.error().message : ""));
    const game::Map map = std::move(*found);
    const std::vector<DiskView> disks = {{{400.0, 200.0}, map.tuning.puck_radius, Ink::puck}};
    Scene scene;
    scene.map = &map;
    scene.disks = disks;
    check_golden("curves_80x24_ascii", render(scene, 80, 24, Glyphs::ascii));
    check_golden("curves_120x40_braille", render(scene, 120, 40, Glyphs::braille));
}

TEST_CASE("render_gives_a_stadiums_walls_posts_and_discs_their_own_colours") {
    auto found = maps::load_map_file(std::filesystem::path(CAROM_STADIUMS_DIR) / "curves.hbs");
    REQUIRE(found.ok());
    const game::Map map = std::move(*found);
    // A disc of the stadium's own colour, and one too dark to see (drawn in its ink's).
    const std::vector<DiskView> disks = {{{200.0, 100.0}, 12.0, Ink::wall, 0x3366FF},
                                         {{600.0, 300.0}, 12.0, Ink::wall, 0x101010}};
    Scene scene;
    scene.map = &map;
    scene.disks = disks;
    const Grid grid = render(scene, 120, 40, Glyphs::braille);
    std::set<std::uint32_t> colours;
    for (int y = 0; y < grid.height(); ++y)
        for (int x = 0; x < grid.width(); ++x)
            colours.insert(grid.at(x, y).rgb);
    CHECK(colours.contains(0xC7E6BDu));  // the nets
    CHECK(colours.contains(0xFFCCCCu));  // the posts
    CHECK(colours.contains(0x3366FFu));  // the disc
    // The ball-area lines have no colour in the file (HaxBall's black): the wall ink's.
    CHECK(colours.contains(kInkColour));
    CHECK_FALSE(colours.contains(0x101010u));
    CHECK_FALSE(colours.contains(0x000000u));
}

}  // namespace
}  // namespace carom::render
