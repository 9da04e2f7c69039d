#include "scene_api.hpp"

#include "api_support.hpp"
#include "carom/render/render.hpp"

namespace carom::capi {
namespace {

carom_ink ink_of(render::Ink ink) {
    switch (ink) {
        case render::Ink::team_left:
            return CAROM_INK_LEFT;
        case render::Ink::team_right:
            return CAROM_INK_RIGHT;
        case render::Ink::own:
            return CAROM_INK_OWN;
        case render::Ink::wall:
            return CAROM_INK_DISC;
        default:
            return CAROM_INK_PUCK;
    }
}

const char* phase_word(render::Phase phase) {
    switch (phase) {
        case render::Phase::playing:
            return "playing";
        case render::Phase::kickoff:
            return "kickoff";
        case render::Phase::goal:
            return "goal";
        case render::Phase::final:
            return "final";
        case render::Phase::waiting:
            return "waiting";
    }
    return "playing";
}

}  // namespace

void fill_scene(const render::Scene& scene, carom_scene_disk* disks, std::size_t capacity,
                std::size_t* count, carom_scene_hud* hud) {
    fill(disks, capacity, count, scene.disks, [](const render::DiskView& d) {
        return carom_scene_disk{d.position.x, d.position.y,
                                d.radius,     ink_of(d.ink),
                                d.rgb,        d.slot ? static_cast<int32_t>(*d.slot) : -1};
    });
    if (hud == nullptr) return;
    *hud = {};
    hud->score[0] = scene.hud.score[0];
    hud->score[1] = scene.hud.score[1];
    hud->ticks_left = scene.hud.ticks_left;
    copy_text(hud->phase, phase_word(scene.hud.phase));
    copy_text(hud->banner, scene.hud.banner);
    copy_text(hud->clock, render::hud_clock(scene.hud.ticks_left, scene.hud.tick_rate_hz));
    copy_text(hud->phase_text, render::hud_phase_text(scene.hud));
}

}  // namespace carom::capi
