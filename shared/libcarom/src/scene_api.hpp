#pragma once
// A scene (shared/render) as the C ABI hands it out: what carom-client, or
// the replay viewer, would draw.
#include <cstddef>

#include "carom.h"
#include "carom/render/scene.hpp"

namespace carom::capi {

// The scene's disks in drawing order into the caller's buffer (the usual
// capacity and count), and its HUD when `hud` is not null.
void fill_scene(const render::Scene& scene, carom_scene_disk* disks, std::size_t capacity,
                std::size_t* count, carom_scene_hud* hud);

}  // namespace carom::capi
