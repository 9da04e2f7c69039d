#pragma once
// What forged server datagrams cost a playing client (carom-client-bench's
// "forged" section): a real Connection holding a 4 v 4, timed on each kind.

namespace carom::client::bench {

// Prints ns per datagram for each kind and what 1000 of them a second take.
void print_forged_costs();
// Connect tokens: their sizes, the time to make one and to open one.
void print_token_costs();

}  // namespace carom::client::bench
