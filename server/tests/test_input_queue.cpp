#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

#include "carom/protocol/packet.hpp"
#include "input_queue.hpp"

using carom::game::Input;
using carom::server::InputQueue;

TEST_CASE("inputs apply one per tick in sequence order, and duplicates and old ones are dropped") {
    InputQueue q;
    CHECK(q.offer(2, Input::move(2).bits()) == InputQueue::Offer::queued);
    CHECK(q.offer(1, Input::move(1).bits()) == InputQueue::Offer::queued);
    CHECK(q.offer(2, Input::move(2).bits()) == InputQueue::Offer::duplicate);
    CHECK(q.next() == Input::move(1));
    CHECK(q.last_applied_sequence() == 1);
    CHECK(q.offer(1, Input::move(9).bits()) == InputQueue::Offer::stale);
    CHECK(q.next() == Input::move(2));
    CHECK(q.last_applied_sequence() == 2);
}

TEST_CASE("with nothing new the last input repeats, and a gap is skipped rather than waited for") {
    InputQueue q;
    q.offer(1, Input::move(3, true).bits());
    CHECK(q.next() == Input::move(3, true));
    CHECK(q.next() == Input::move(3, true));
    CHECK(q.repeated() == 1);
    q.offer(5, Input::move(4).bits());
    CHECK(q.next() == Input::move(4));
    CHECK(q.last_applied_sequence() == 5);
}

TEST_CASE("meaningless bits are cleared before an input is queued") {
    InputQueue q;
    q.offer(1, 0xFF);
    CHECK(q.next().bits() == Input::from_bits(0xFF).bits());
    CHECK(q.next().bits() == 0x3F);
}

TEST_CASE("a client far ahead of the server loses its oldest buffered inputs, not memory") {
    InputQueue q;
    for (std::uint32_t s = 1; s <= InputQueue::kMaxBuffered + 10; ++s)
        q.offer(s, 0);
    CHECK(q.overflowed() == 10);
    q.next();
    CHECK(q.last_applied_sequence() == 11);
}

TEST_CASE("offers in any order, with repeats and gaps, match an ordered-map model of the queue") {
    const std::uint64_t seed = 0x5eed'1b0f'0001ULL;
    std::printf("test_input_queue: random offers, seed %llu\n",
                static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    InputQueue q;
    std::map<std::uint32_t, std::uint8_t> model;  // pending, by sequence
    std::uint32_t applied = 0, newest = 0;
    std::uint64_t overflowed = 0;
    Input held;
    for (int step = 0; step < 20000; ++step) {
        CAPTURE(step);
        if (rng() % 3 != 0) {
            // Mostly near the newest (redundant copies, reordering), at times far ahead.
            const std::uint32_t sequence =
                rng() % 50 == 0
                    ? newest + 1 + static_cast<std::uint32_t>(rng() % 60)
                    : newest + 2 - std::min(newest + 1, static_cast<std::uint32_t>(rng() % 12));
            const auto bits = static_cast<std::uint8_t>(rng());
            InputQueue::Offer expected = InputQueue::Offer::queued;
            if (sequence <= applied) {
                expected = InputQueue::Offer::stale;
            } else if (model.count(sequence) != 0) {
                expected = InputQueue::Offer::duplicate;
            } else {
                model[sequence] = Input::from_bits(bits).bits();
                newest = std::max(newest, sequence);
                if (model.size() > InputQueue::kMaxBuffered) {
                    model.erase(model.begin());
                    ++overflowed;
                }
            }
            REQUIRE(q.offer(sequence, bits) == expected);
        } else {
            if (!model.empty()) {
                applied = model.begin()->first;
                held = Input::from_bits(model.begin()->second);
                model.erase(model.begin());
            }
            REQUIRE(q.next() == held);
            REQUIRE(q.last_applied_sequence() == applied);
        }
        REQUIRE(q.overflowed() == overflowed);
    }
}

TEST_CASE("input sequences wrap at 2^32: order, duplicates and staleness hold across the wrap") {
    InputQueue q;
    // Bring the queue to just before the wrap, one applied input at a time
    // would take 2^32 ticks: jump there with one input inside the window at each step.
    std::uint32_t s = 0;
    while (s < 0xFFFFFFF0u) {
        const std::uint32_t step =
            std::min<std::uint32_t>(carom::protocol::kSequenceWindow, 0xFFFFFFF0u - s);
        s += step;
        REQUIRE(q.offer(s, 0) == InputQueue::Offer::queued);
        q.next();
        REQUIRE(q.last_applied_sequence() == s);
    }
    // 0xFFFFFFFE, 0xFFFFFFFF, 0, 1 arrive out of order, with a duplicate.
    const std::uint8_t moving = Input::move(3).bits();
    CHECK(q.offer(1, moving) == InputQueue::Offer::queued);
    CHECK(q.offer(0xFFFFFFFFu, moving) == InputQueue::Offer::queued);
    CHECK(q.offer(0, moving) == InputQueue::Offer::queued);
    CHECK(q.offer(0xFFFFFFFEu, moving) == InputQueue::Offer::queued);
    CHECK(q.offer(0, moving) == InputQueue::Offer::duplicate);
    for (const std::uint32_t expected : {0xFFFFFFFEu, 0xFFFFFFFFu, 0u, 1u}) {
        q.next();
        CHECK(q.last_applied_sequence() == expected);
    }
    // Past the wrap, the sequences before it are old, not far ahead.
    CHECK(q.offer(0xFFFFFFFFu, moving) == InputQueue::Offer::stale);
    CHECK(q.offer(0xFFFFFFF0u, moving) == InputQueue::Offer::stale);
    CHECK(q.offer(2, moving) == InputQueue::Offer::queued);
    // Beyond the window ahead: refused, so a wild sequence cannot make every later input stale.
    CHECK(q.offer(2 + carom::protocol::kSequenceWindow + 1, moving) == InputQueue::Offer::stale);
    q.next();
    CHECK(q.last_applied_sequence() == 2);
}
