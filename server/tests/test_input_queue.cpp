#include <doctest/doctest.h>

#include "input_queue.hpp"

using carom::game::Input;
using carom::server::InputQueue;

TEST_CASE("inputs apply one per tick in sequence order; duplicates and old ones are dropped") {
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
