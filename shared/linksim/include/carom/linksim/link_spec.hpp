#pragma once
// What a simulated link does to datagrams, and its text form:
//   loss=10,latency=100,jitter=30,dup=2,reorder=2,rate=512,queue=500,seed=7
// Each applies to one direction; a program that simulates both directions
// uses the same spec for each (with its own seed stream).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "carom/result.hpp"

namespace carom::linksim {

struct LinkSpec {
    double loss_percent = 0.0;       // each datagram lost with this probability
    double latency_ms = 0.0;         // one-way delay
    double jitter_ms = 0.0;          // the delay varies uniformly within ± this
    double duplicate_percent = 0.0;  // a second copy arrives shortly after the first
    double reorder_percent = 0.0;    // held back so that later datagrams overtake it
    double rate_kbit = 0.0;          // bandwidth cap in kbit/s; 0: none
    double queue_ms = 500.0;         // under the cap, a datagram that would wait longer is dropped
    std::optional<std::uint64_t> seed;  // absent: the program picks one and prints it

    // Whether the link changes anything at all.
    bool active() const;
    bool operator==(const LinkSpec&) const = default;
};

// Parses the text form. Keys: loss, dup, reorder (percent, 0..100), latency,
// jitter, queue (ms, 0..60000), rate (kbit/s, 0 or 1..10000000), seed (an
// unsigned integer). Order is free; a key at most once; an empty text is an
// error. Returns the spec, or a message naming the offending part.
Result<LinkSpec> parse_link_spec(std::string_view text);

// The text form back, every key with its value (the seed when set): what a
// program prints so that a run can be repeated.
std::string to_string(const LinkSpec& spec);

// A well-mixed 64-bit seed for one stream of a run (client i's uplink, ...),
// so streams drawn from one printed seed do not correlate.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

}  // namespace carom::linksim
