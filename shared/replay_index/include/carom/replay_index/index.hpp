#pragma once
// The index of a replay directory: one row per replay file in an SQLite
// database beside them (DIR/index.sqlite), so that other tools and a web
// page can read it too. The files stay the truth: sync() makes the index
// agree with the directory (adds what a crash between a file and its row
// left out, drops rows whose file is gone), and every row can be rebuilt
// from its file.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "carom/replay/replay.hpp"
#include "carom/result.hpp"

namespace carom::replay_index {

inline constexpr const char* kIndexFileName = "index.sqlite";

struct IndexedPlayer {
    std::uint32_t slot = 0;
    std::string name;
    std::string team;  // "left" or "right"
    bool bot = false;
};

// What the index keeps of a match.
struct MatchRow {
    std::string file;  // the name within the directory
    std::uint64_t file_bytes = 0;
    std::optional<std::uint32_t> room;  // from a server's file name (room<R>-...)
    std::string map;
    std::uint64_t seed = 0;
    std::string start_time;  // UTC, ISO 8601: the end less the length of play
    std::string end_time;    // UTC, ISO 8601: when the file was last written
    std::uint64_t ticks = 0;
    double seconds = 0.0;
    std::uint32_t score_left = 0, score_right = 0;
    std::string result;      // left won, right won, draw, unfinished
    std::string final_hash;  // 16 hex digits
    std::uint32_t format_version = 0, core_version = 0;
    std::string producer;                // what wrote it, with its carom version
    std::vector<IndexedPlayer> players;  // everyone who played, by slot then name
};

// A row from a replay as read (the file's name, size and time from the disk).
MatchRow row_of(const std::filesystem::path& file, const replay::Replay& replay);
// The same from what wrote the file (its header, the joins in it, the
// footer, the last tick), without reading it back: a server adds the row of
// a match it just finished on its tick thread, and reading a ten-minute
// replay back took about 10 ms.
MatchRow row_of(const std::filesystem::path& file, const replay::Header& header,
                std::span<const game::RosterChange> roster,
                const std::optional<replay::Footer>& footer, std::uint64_t last_tick);

struct FindQuery {
    std::optional<std::string> player;  // played in it (exact name)
    std::optional<std::string> map;
    std::optional<std::string> since;  // end_time at or after this (ISO 8601 prefix)
};

struct SyncReport {
    std::uint64_t added = 0, removed = 0, unreadable = 0, kept = 0;
};

class Index {
  public:
    // Opens (or creates) DIR/index.sqlite.
    static Result<Index> open(const std::filesystem::path& dir);
    Index(Index&&) noexcept;
    Index& operator=(Index&&) noexcept;
    ~Index();

    // Adds or replaces the row of one replay file of the directory.
    Status add(const std::filesystem::path& file);
    Status add(const MatchRow& row);
    // Removes the row of a file (removed from the directory).
    Status remove(const std::filesystem::path& file);
    // Makes the index agree with the files: rows for files that have none
    // (or whose size or time changed), none for files that are gone.
    Result<SyncReport> sync();
    Result<std::vector<MatchRow>> find(const FindQuery& query) const;

  private:
    struct Db;
    Index(std::filesystem::path dir, std::unique_ptr<Db> db);
    std::filesystem::path dir_;
    std::unique_ptr<Db> db_;
};

}  // namespace carom::replay_index
