// carom-replay cast: the asciicast v2 header and event lines, and frames that
// show what the renderer draws (checked by playing the output on a small
// terminal emulator); the viewer's controls.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <sstream>

#include "carom/replay/reader.hpp"
#include "cast.hpp"
#include "corpus.hpp"
#include "view.hpp"

namespace carom::tool {
namespace {

replay::Replay read(const std::string& path) {
    auto r = replay::read_replay(path);
    REQUIRE_MESSAGE(r.ok(), path, " is unreadable");
    return *std::move(r);
}

// Enough of a terminal for the cast's output: cursor moves (CSI r;c H),
// clears (CSI 2J), SGR and mode changes (ignored), UTF-8 text.
class Screen {
  public:
    Screen(int width, int height) : width_(width), rows_(static_cast<std::size_t>(height)) {
        clear();
    }

    void feed(const std::string& s) {
        std::size_t i = 0;
        while (i < s.size()) {
            if (s[i] == '\x1b') {
                REQUIRE(i + 1 < s.size());
                REQUIRE(s[i + 1] == '[');
                std::size_t j = i + 2;
                while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) != 0 ||
                                        s[j] == ';' || s[j] == '?'))
                    ++j;
                REQUIRE(j < s.size());
                const std::string params = s.substr(i + 2, j - i - 2);
                const char final = s[j];
                if (final == 'H') {
                    int r = 1;
                    int c = 1;
                    std::sscanf(params.c_str(), "%d;%d", &r, &c);
                    row_ = r - 1;
                    col_ = c - 1;
                } else if (final == 'J') {
                    CHECK(params == "2");
                    clear();
                } else {
                    CHECK((final == 'm' || final == 'l'));
                }
                i = j + 1;
                continue;
            }
            // One UTF-8 code point.
            const auto b = static_cast<unsigned char>(s[i]);
            const std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
            REQUIRE(b >= 0x20);
            REQUIRE(row_ >= 0);
            REQUIRE(row_ < static_cast<int>(rows_.size()));
            REQUIRE(col_ >= 0);
            REQUIRE(col_ < width_);
            cells(row_)[static_cast<std::size_t>(col_)] = s.substr(i, n);
            ++col_;
            i += n;
        }
    }

    std::string row(int y) const {
        std::string out;
        for (const std::string& c : rows_[static_cast<std::size_t>(y)])
            out += c;
        return out;
    }

  private:
    void clear() {
        for (auto& r : rows_)
            r.assign(static_cast<std::size_t>(width_), " ");
        row_ = col_ = 0;
    }
    std::vector<std::string>& cells(int y) { return rows_[static_cast<std::size_t>(y)]; }

    int width_;
    std::vector<std::vector<std::string>> rows_;
    int row_ = 0;
    int col_ = 0;
};

TEST_CASE("cast: an asciicast v2 header, then event lines whose frames are the renderer grids") {
    const replay::Replay r = read(std::string(CAROM_CORPUS_DIR) + "/duel-rink.crpl");
    CastOptions o;
    o.width = 90;
    o.height = 28;
    o.speed = 8.0;
    o.fps = 10.0;
    o.timestamp = 1700000000;
    o.title = "duel";
    std::ostringstream out;
    const Result<CastFigures> cast = write_cast(r, o, out);
    REQUIRE(cast.ok());
    const CastFigures& figures = *cast;

    std::istringstream lines(out.str());
    std::string line;
    REQUIRE(std::getline(lines, line));
    const nlohmann::json header = nlohmann::json::parse(line);
    CHECK(header.at("version") == 2);
    CHECK(header.at("width") == 90);
    CHECK(header.at("height") == 28);
    CHECK(header.at("timestamp") == 1700000000);
    CHECK(header.at("title") == "duel");
    CHECK(header.at("env").is_object());

    // Every frame is checked against the grid composed at its position (the
    // viewer's frame) and its arena rows against render() alone.
    const std::uint64_t seed = test::test_seed();
    std::mt19937_64 rng(seed);
    CAPTURE(seed);
    SeekEngine engine(r);
    Screen screen(o.width, o.height);
    double last_time = -1.0;
    std::uint64_t events = 0;
    std::uint64_t checked_render = 0;
    const std::uint64_t length = timeline_length(r);
    while (std::getline(lines, line)) {
        const nlohmann::json e = nlohmann::json::parse(line);
        REQUIRE(e.is_array());
        REQUIRE(e.size() == 3);
        REQUIRE(e[0].is_number());
        CHECK(e[1] == "o");
        REQUIRE(e[2].is_string());
        const double t = e[0].get<double>();
        CHECK(t > last_time);
        last_time = t;
        screen.feed(e[2].get<std::string>());
        ++events;

        const auto index = static_cast<std::uint64_t>(std::llround(t * o.fps));
        Playback p;
        p.length = length;
        p.speed = o.speed;
        p.position = std::min(cast_position(o, r.header.tick_rate, index), length);
        REQUIRE(engine.seek(p.position).ok());
        const render::Grid expected = compose(engine, o.view, p, o.width, o.height);
        for (int y = 0; y < o.height; ++y) {
            CAPTURE(y);
            CAPTURE(t);
            REQUIRE(screen.row(y) == expected.row_utf8(y));
        }
        if (rng() % 8 == 0) {
            // The rows above the timeline are the renderer's own grid for that tick.
            render::SceneBuilder builder;
            const render::Grid own = render::render(build_scene(builder, engine, o.view), o.width,
                                                    o.height - 1, o.view.glyphs);
            const std::string banner = end_banner(engine);
            for (int y = 0; y < o.height - 1 && banner.empty(); ++y)
                CHECK(screen.row(y) == own.row_utf8(y));
            ++checked_render;
        }
    }
    CHECK(events > 50);
    CHECK(events <= figures.frames);
    CHECK(checked_render > 0);
    // The last frame is the final whistle, at the end of the timeline.
    CHECK(engine.tick() == r.last_tick());
    CHECK(end_banner(engine).find("FINAL 6-3 left wins") != std::string::npos);
    bool banner_on_screen = false;
    for (int y = 0; y < o.height; ++y)
        banner_on_screen = banner_on_screen || screen.row(y).find("FINAL") != std::string::npos;
    CHECK(banner_on_screen);
}

TEST_CASE("cast: only changed cells are written after the first frame") {
    render::Grid a(10, 3);
    a.put(0, 0, "hello", render::Ink::text);
    render::Grid b = a;
    CHECK(frame_output(&a, b).empty());
    b.put(7, 2, "x", render::Ink::puck);
    const std::string diff = frame_output(&a, b);
    CHECK(diff.find("\x1b[3;8H") != std::string::npos);
    CHECK(diff.find("hello") == std::string::npos);
    CHECK(frame_output(nullptr, b).find("hello") != std::string::npos);
}

TEST_CASE("controls: speeds, seeks, goals, ticks while paused, the end") {
    const replay::Replay r = read(std::string(CAROM_CORPUS_DIR) + "/duel-rink.crpl");
    SeekEngine engine(r);
    const std::uint64_t length = timeline_length(r);
    CHECK(length == r.last_tick() + std::max<std::uint64_t>(r.header.final_pause_ticks, 60));
    PlaybackControl c(engine, length, 0);
    CHECK(c.speed() == 1.0);
    for (int i = 0; i < 10; ++i)
        c.press(ViewKey::faster);
    CHECK(c.speed() == 16.0);
    for (int i = 0; i < 10; ++i)
        c.press(ViewKey::slower);
    CHECK(c.speed() == 0.25);
    c.press(ViewKey::faster);
    c.press(ViewKey::faster);  // 1x
    c.advance(2.0);
    CHECK(c.position() == 120);
    c.press(ViewKey::forward_5s);
    CHECK(c.position() == 420);
    c.press(ViewKey::back_30s);
    CHECK(c.position() == 0);
    c.press(ViewKey::forward_30s);
    CHECK(c.position() == 1800);
    c.press(ViewKey::tick_forward);  // not paused: ignored
    CHECK(c.position() == 1800);
    c.press(ViewKey::pause);
    c.press(ViewKey::tick_forward);
    c.press(ViewKey::tick_forward);
    c.press(ViewKey::tick_back);
    CHECK(c.position() == 1801);
    c.advance(5.0);  // paused: stays
    CHECK(c.position() == 1801);
    c.press(ViewKey::next_goal);
    CHECK(c.position() == engine.next_goal(1801));
    const std::uint64_t g = c.position();
    c.press(ViewKey::previous_goal);
    CHECK(c.position() == engine.previous_goal(g));
    c.press(ViewKey::end);
    CHECK(c.position() == length);
    CHECK(c.match_tick() == r.last_tick());
    c.press(ViewKey::home);
    CHECK(c.position() == 0);
    c.press(ViewKey::pause);  // play
    c.advance(1e6);
    CHECK(c.position() == length);
    CHECK(c.paused());
    c.press(ViewKey::pause);  // at the end: again from the start
    CHECK(c.position() == 0);
    CHECK_FALSE(c.paused());
    c.set_speed(3.0);
    CHECK(c.speed() == 2.0);
    c.set_speed(100.0);
    CHECK(c.speed() == 16.0);
}

TEST_CASE(
    "the viewer's banner: the goal of the pause, then the final whistle, as the client says them") {
    const replay::Replay r = read(std::string(CAROM_CORPUS_DIR) + "/duel-rink.crpl");
    SeekEngine engine(r);
    REQUIRE_FALSE(engine.goals().empty());
    const GoalMark& g = engine.goals().front();
    REQUIRE(engine.seek(g.tick + 1).ok());
    REQUIRE(engine.match().phase() == game::Phase::goal_pause);
    render::SceneBuilder builder;
    const render::Scene scene = build_scene(builder, engine, {});
    const game::Match& m = engine.match();
    std::string expected = g.team == game::Team::left ? "GOAL! left" : "GOAL! right";
    if (g.scorer)
        expected = "GOAL! " + render::display_name(m, *g.scorer);
    else if (g.own_goal_by)
        expected = "GOAL! own goal by " + render::display_name(m, *g.own_goal_by);
    CHECK(scene.hud.banner == expected);
    CHECK(scene.hud.banner == render::phase_banner(m, &g));
    CHECK(end_banner(engine).empty());
    // The scene's player disks carry their slots.
    for (const render::DiskView& d : scene.disks)
        if (d.ink == render::Ink::team_left || d.ink == render::Ink::team_right)
            CHECK((d.slot.has_value() && m.active(*d.slot)));
    REQUIRE(engine.seek(engine.last_tick()).ok());
    const std::uint32_t left = engine.match().score(game::Team::left);
    const std::uint32_t right = engine.match().score(game::Team::right);
    CHECK(end_banner(engine) == render::final_banner(left, right));
    CHECK(build_scene(builder, engine, {}).hud.banner == render::final_banner(left, right));
    CHECK(render::final_banner(2, 2) == "FINAL 2-2 DRAW");
    CHECK(render::final_banner(1, 3) == "FINAL 1-3 right wins");
}

}  // namespace
}  // namespace carom::tool
