#include "physics/engine.hpp"

namespace carom::bench {

std::vector<EngineEntry> all_engines() {
    return {
        {"carom", &make_carom_engine, carom_description()},
        {"box2d", &make_box2d_engine, box2d_description()},
        {"chipmunk-bbtree", &make_chipmunk_bbtree_engine, chipmunk_description()},
        {"chipmunk-hash10", &make_chipmunk_hash10_engine, chipmunk_description()},
    };
}

}  // namespace carom::bench
