#include "capi/step_rates.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "carom.h"
#include "carom/game/match.hpp"
#include "carom/maps/map_file.hpp"

namespace carom::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint32_t kSlots = 8;
constexpr std::uint32_t kScheduleTicks = 4;  // the inputs change every 4 ticks in every variant

void check(carom_status status) {
    if (status != CAROM_OK) throw std::runtime_error(carom_last_error());
}

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::array<std::uint8_t, kSlots> inputs_at(std::uint64_t tick) {
    std::array<std::uint8_t, kSlots> inputs{};
    for (std::uint32_t s = 0; s < kSlots; ++s)
        inputs[s] = scheduled_input(s, tick / kScheduleTicks);
    return inputs;
}

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

VariantRate summarise(const std::vector<double>& rates, const std::vector<double>& cpp) {
    std::vector<double> ratios;
    for (std::size_t i = 0; i < rates.size(); ++i)
        ratios.push_back(rates[i] / cpp[i]);
    return {quantile(rates, 0.5), quantile(ratios, 0.5), quantile(ratios, 0.25),
            quantile(ratios, 0.75)};
}

// game::Match::step, as carom-server runs it; a finished match starts over.
double run_cpp(const game::Map& map, double seconds) {
    game::Match match(map, 1);
    for (game::Slot s = 0; s < kSlots; ++s)
        match.join(s, "p");
    const game::MatchState start = match.save();
    std::array<game::Input, kSlots> inputs{};
    std::uint64_t ticks = 0;
    const auto t0 = Clock::now();
    do {
        for (int i = 0; i < 256; ++i, ++ticks) {
            if (ticks % kScheduleTicks == 0) {
                const auto bytes = inputs_at(ticks);
                for (std::uint32_t s = 0; s < kSlots; ++s)
                    inputs[s] = game::Input::from_bits(bytes[s]);
            }
            match.step(inputs);
            if (match.phase() == game::Phase::finished) match.restore(start);
        }
    } while (seconds_since(t0) < seconds);
    return static_cast<double>(ticks) / seconds_since(t0);
}

struct CMatch {
    carom_match* match = nullptr;
    carom_state* start = nullptr;
    CMatch(const carom_map* map) {
        check(carom_match_create(map, 1, &match));
        for (std::uint32_t s = 0; s < kSlots; ++s)
            check(carom_match_join(match, s, "p"));
        check(carom_match_save(match, &start));
    }
    ~CMatch() {
        carom_state_free(start);
        carom_match_free(match);
    }
    CMatch(const CMatch&) = delete;
    CMatch& operator=(const CMatch&) = delete;
    void restart_when_finished() {
        carom_match_info info;
        check(carom_match_get_info(match, &info));
        if (info.phase == CAROM_PHASE_FINISHED) check(carom_match_restore(match, start));
    }
};

// carom_match_step, `per_call` ticks a call.
double run_capi(const carom_map* map, std::uint32_t per_call, double seconds) {
    CMatch m(map);
    std::uint64_t ticks = 0;
    const auto t0 = Clock::now();
    do {
        for (int i = 0; i < 64; ++i, ticks += per_call) {
            const auto inputs = inputs_at(ticks);
            check(carom_match_step(m.match, inputs.data(), kSlots, per_call));
            m.restart_when_finished();
        }
    } while (seconds_since(t0) < seconds);
    return static_cast<double>(ticks) / seconds_since(t0);
}

// carom_matches_step over `count` matches, `per_call` ticks each a call.
double run_capi_batch(const carom_map* map, std::uint32_t count, std::uint32_t per_call,
                      double seconds) {
    std::vector<std::unique_ptr<CMatch>> matches;
    std::vector<carom_match*> handles;
    for (std::uint32_t i = 0; i < count; ++i) {
        matches.push_back(std::make_unique<CMatch>(map));
        handles.push_back(matches.back()->match);
    }
    std::vector<std::uint8_t> inputs(std::size_t{count} * kSlots);
    std::vector<std::int32_t> phases(count);
    std::uint64_t ticks = 0;  // of one match
    const auto t0 = Clock::now();
    do {
        for (int i = 0; i < 8; ++i, ticks += per_call) {
            const auto one = inputs_at(ticks);
            for (std::uint32_t m = 0; m < count; ++m)
                std::copy(one.begin(), one.end(), inputs.begin() + m * kSlots);
            check(carom_matches_step(handles.data(), count, inputs.data(), inputs.size(), per_call,
                                     phases.data()));
            for (std::uint32_t m = 0; m < count; ++m)
                if (phases[m] == CAROM_PHASE_FINISHED)
                    check(carom_match_restore(matches[m]->match, matches[m]->start));
        }
    } while (seconds_since(t0) < seconds);
    return static_cast<double>(ticks * count) / seconds_since(t0);
}

}  // namespace

std::uint8_t scheduled_input(std::uint32_t slot, std::uint64_t step) {
    const auto direction = static_cast<std::uint8_t>((step / 8 + 3 * slot) % 16);
    const bool kick = (step + slot) % 5 == 0;
    return static_cast<std::uint8_t>(CAROM_INPUT_MOVE | direction | (kick ? CAROM_INPUT_KICK : 0));
}

StepRates measure_step_rates(const StepSettings& settings) {
    auto loaded = maps::load_map_file(settings.map_path);
    if (!loaded) throw std::runtime_error(loaded.error().message);
    if (loaded->team_size != kSlots / 2)
        throw std::runtime_error(settings.map_path + ": not a 4 v 4 map");
    carom_map* map = nullptr;
    check(carom_map_load(settings.map_path.c_str(), &map));
    std::vector<double> cpp, tick, held, batch;
    for (int r = 0; r < settings.rounds; ++r) {
        cpp.push_back(run_cpp(*loaded, settings.seconds));
        tick.push_back(run_capi(map, 1, settings.seconds));
        held.push_back(run_capi(map, settings.ticks_per_call, settings.seconds));
        batch.push_back(
            run_capi_batch(map, settings.matches, settings.ticks_per_call, settings.seconds));
    }
    carom_map_free(map);
    return {summarise(cpp, cpp), summarise(tick, cpp), summarise(held, cpp), summarise(batch, cpp)};
}

}  // namespace carom::bench
