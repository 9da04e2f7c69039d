#pragma once
// Output of the replay benchmark: a table for people, JSON lines for scripts.
#include "replay/load.hpp"
#include "replay/size.hpp"
#include "replay/verify_speed.hpp"

namespace carom::bench {

struct SizeFigures {
    ByteBreakdown bytes;
    std::uint64_t player_ticks;
};

void print_table_preamble(const VerifySettings& settings);
void print_table_file(const LoadedReplay& file);
void print_table_verify(const VerifySpeed& speed);
void print_table_size(const SizeFigures& size);

// One JSON object on one line each.
void print_json_verify(const LoadedReplay& file, const VerifySpeed& speed,
                       const VerifySettings& settings);
void print_json_size(const LoadedReplay& file, const SizeFigures& size);

}  // namespace carom::bench
