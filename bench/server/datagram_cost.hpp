#pragma once
// Datagram cost: the server transport's send (queued, sent by sendmmsg in
// batches) against a bare sendto loop of the same sizes.
#include <cstdint>
#include <vector>

namespace carom::bench {

struct DatagramCost {
    double transport_ns = 0, sendto_ns = 0;
};

// Best of 3 rounds of 100000 datagrams of `sizes` in turn (not empty).
DatagramCost measure_datagram_cost(const std::vector<std::uint16_t>& sizes);

void print_datagram_cost(const DatagramCost& cost, bool json);

}  // namespace carom::bench
