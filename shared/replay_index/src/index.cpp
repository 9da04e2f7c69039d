#include "carom/replay_index/index.hpp"

#include <sqlite3.h>

#include <charconv>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>

#include "carom/game/map.hpp"
#include "carom/replay/reader.hpp"

namespace carom::replay_index {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS matches (
  file TEXT PRIMARY KEY, file_bytes INTEGER, room INTEGER, map TEXT, seed TEXT,
  start_time TEXT, end_time TEXT, ticks INTEGER, seconds REAL,
  score_left INTEGER, score_right INTEGER, result TEXT, final_hash TEXT,
  format_version INTEGER, core_version INTEGER, producer TEXT);
CREATE TABLE IF NOT EXISTS players (
  file TEXT REFERENCES matches(file) ON DELETE CASCADE,
  slot INTEGER, name TEXT, team TEXT, bot INTEGER);
CREATE INDEX IF NOT EXISTS players_by_name ON players(name);
CREATE INDEX IF NOT EXISTS matches_by_end ON matches(end_time);
PRAGMA foreign_keys = ON;
)";

std::string utc_iso(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

std::time_t to_time_t(fs::file_time_type t) {
    const auto system = fs::file_time_type::clock::to_sys(t);
    return std::chrono::system_clock::to_time_t(system);
}

// One prepared statement, finalised on every path.
class Statement {
  public:
    Statement(sqlite3* db, const char* sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) stmt_ = nullptr;
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool ok() const { return stmt_ != nullptr; }
    sqlite3_stmt* get() const { return stmt_; }
    void text(int i, const std::string& s) {
        sqlite3_bind_text(stmt_, i, s.c_str(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    }
    void integer(int i, std::int64_t v) { sqlite3_bind_int64(stmt_, i, v); }
    void real(int i, double v) { sqlite3_bind_double(stmt_, i, v); }
    void null(int i) { sqlite3_bind_null(stmt_, i); }
    // Runs a statement that returns no rows.
    Status run() {
        if (!stmt_) return fail(std::string("sqlite: ") + sqlite3_errmsg(db_));
        if (sqlite3_step(stmt_) != SQLITE_DONE)
            return fail(std::string("sqlite: ") + sqlite3_errmsg(db_));
        return {};
    }
    std::string column_text(int i) const {
        const auto* p = sqlite3_column_text(stmt_, i);
        return p ? reinterpret_cast<const char*>(p) : "";
    }

  private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// How long a writer waits for another process's lock before it gives up.
constexpr std::chrono::milliseconds kLockPatience{2000};

Status exec(sqlite3* db, const char* sql) {
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) == SQLITE_OK) return {};
    std::string text = message ? message : "error";
    sqlite3_free(message);
    return fail("sqlite: " + text);
}

// exec, waiting out another process's lock: SQLite does not call the busy
// handler for every lock (switching a new file to WAL takes one without), so a
// second server opening the index at the same moment was refused at once.
Status exec_waiting(sqlite3* db, const char* sql) {
    const auto deadline = std::chrono::steady_clock::now() + kLockPatience;
    for (;;) {
        Status done = exec(db, sql);
        const int code = sqlite3_errcode(db) & 0xff;
        if (done || (code != SQLITE_BUSY && code != SQLITE_LOCKED) ||
            std::chrono::steady_clock::now() >= deadline)
            return done;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

// The room of a server's file name, "room<digits>-...crpl", or none.
std::optional<std::uint32_t> room_of(std::string_view name) {
    constexpr std::string_view prefix = "room", suffix = ".crpl";
    if (!name.starts_with(prefix) || !name.ends_with(suffix)) return std::nullopt;
    const std::string_view rest = name.substr(prefix.size());
    std::uint32_t room = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), room);
    if (error != std::errc() || end == rest.data() || end == rest.data() + rest.size() ||
        *end != '-')
        return std::nullopt;
    return room;
}

}  // namespace

struct Index::Db {
    sqlite3* handle = nullptr;
    ~Db() { sqlite3_close(handle); }
};

MatchRow row_of(const fs::path& file, const replay::Replay& r) {
    return row_of(file, r.header, r.roster, r.footer, r.last_tick());
}

MatchRow row_of(const fs::path& file, const replay::Header& header,
                std::span<const game::RosterChange> roster,
                const std::optional<replay::Footer>& footer, std::uint64_t last_tick) {
    MatchRow row;
    row.file = file.filename().string();
    std::error_code error;
    row.file_bytes = fs::file_size(file, error);
    const std::time_t end = error ? 0 : to_time_t(fs::last_write_time(file, error));
    row.room = room_of(row.file);
    row.map = header.map.name;
    row.seed = header.seed;
    row.ticks = last_tick;
    row.seconds = static_cast<double>(row.ticks) / header.tick_rate;
    row.end_time = utc_iso(end);
    const auto pause_s = header.final_pause_ticks / header.tick_rate;
    row.start_time = utc_iso(end - static_cast<std::time_t>(row.seconds) - pause_s);
    if (footer) {
        row.score_left = footer->score[0];
        row.score_right = footer->score[1];
        row.result = replay::to_string(footer->result);
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016" PRIx64, footer->final_hash);
        row.final_hash = hex;
    } else {
        row.result = "unfinished";
    }
    row.format_version = header.format_version;
    row.core_version = header.core_version;
    row.producer = header.producer;
    // Everyone who played: the players at tick 0 and every join.
    std::set<std::pair<std::uint32_t, std::string>> seen;
    const auto add = [&](std::uint32_t slot, const std::string& name, bool bot) {
        if (!seen.insert({slot, name}).second) return;
        const bool left = slot < header.map.team_size;
        row.players.push_back({slot, name, left ? "left" : "right", bot});
    };
    for (const game::RosterEntry& p : header.players)
        add(p.slot, p.name, p.bot);
    for (const game::RosterChange& c : roster)
        if (c.join) add(c.slot, c.name, c.bot);
    return row;
}

Index::Index(fs::path dir, std::unique_ptr<Db> db) : dir_(std::move(dir)), db_(std::move(db)) {}
Index::Index(Index&&) noexcept = default;
Index& Index::operator=(Index&&) noexcept = default;
Index::~Index() = default;

Result<Index> Index::open(const fs::path& dir) {
    auto db = std::make_unique<Db>();
    const fs::path path = dir / kIndexFileName;
    if (sqlite3_open(path.c_str(), &db->handle) != SQLITE_OK)
        return fail(path.string() + ": " + sqlite3_errmsg(db->handle));
    // Servers sharing a directory and `carom-replay find` may use it at once.
    sqlite3_busy_timeout(db->handle, static_cast<int>(kLockPatience.count()));
    // WAL with synchronous=NORMAL: a commit appends to the log without an
    // fsync (the server adds a row on its tick thread; a rollback journal's
    // fsyncs took ~10 ms a row). A power cut may lose the newest rows, never
    // the index: the files stay the truth and the next start's sync adds them.
    if (auto wal =
            exec_waiting(db->handle, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
        !wal)
        return wal.error_in(path.string());
    if (auto made = exec_waiting(db->handle, kSchema); !made) return made.error_in(path.string());
    return Index(dir, std::move(db));
}

Status Index::add(const fs::path& file) {
    auto read = replay::read_replay(file);
    if (!read) return read.error_in(file.string());
    return add(row_of(file, *read));
}

Status Index::add(const MatchRow& row) {
    sqlite3* db = db_->handle;
    // IMMEDIATE takes the write lock at once, waiting for it (the busy
    // timeout): a deferred transaction that reads first and then writes may be
    // refused at once when another process (a second server on the same
    // directory) wrote in between.
    if (auto begun = exec(db, "BEGIN IMMEDIATE"); !begun) return begun;
    Statement drop(db, "DELETE FROM matches WHERE file = ?1");
    drop.text(1, row.file);
    Statement insert(db,
                     "INSERT INTO matches VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                     "?12, ?13, ?14, ?15, ?16)");
    insert.text(1, row.file);
    insert.integer(2, static_cast<std::int64_t>(row.file_bytes));
    if (row.room)
        insert.integer(3, *row.room);
    else
        insert.null(3);
    insert.text(4, row.map);
    insert.text(5, std::to_string(row.seed));  // 64 bits do not fit SQLite's signed integer
    insert.text(6, row.start_time);
    insert.text(7, row.end_time);
    insert.integer(8, static_cast<std::int64_t>(row.ticks));
    insert.real(9, row.seconds);
    insert.integer(10, row.score_left);
    insert.integer(11, row.score_right);
    insert.text(12, row.result);
    insert.text(13, row.final_hash);
    insert.integer(14, row.format_version);
    insert.integer(15, row.core_version);
    insert.text(16, row.producer);
    Status done = drop.run();
    if (done) done = insert.run();
    for (const IndexedPlayer& p : row.players) {
        if (!done) break;
        Statement player(db, "INSERT INTO players VALUES (?1, ?2, ?3, ?4, ?5)");
        player.text(1, row.file);
        player.integer(2, p.slot);
        player.text(3, p.name);
        player.text(4, p.team);
        player.integer(5, p.bot ? 1 : 0);
        done = player.run();
    }
    if (auto ended = exec(db, done ? "COMMIT" : "ROLLBACK"); !ended && done) return ended;
    return done;
}

Status Index::remove(const fs::path& file) {
    Statement drop(db_->handle, "DELETE FROM matches WHERE file = ?1");
    drop.text(1, file.filename().string());
    return drop.run();
}

Result<SyncReport> Index::sync() {
    SyncReport report;
    std::map<std::string, std::uint64_t> indexed;  // file -> bytes
    {
        Statement all(db_->handle, "SELECT file, file_bytes FROM matches");
        if (!all.ok()) return fail(std::string("sqlite: ") + sqlite3_errmsg(db_->handle));
        while (sqlite3_step(all.get()) == SQLITE_ROW)
            indexed[all.column_text(0)] =
                static_cast<std::uint64_t>(sqlite3_column_int64(all.get(), 1));
    }
    std::error_code error;
    std::set<std::string> present;
    for (const auto& entry : fs::directory_iterator(dir_, error)) {
        if (entry.path().extension() != ".crpl") continue;
        const std::string name = entry.path().filename().string();
        present.insert(name);
        std::error_code ignored;
        const auto it = indexed.find(name);
        if (it != indexed.end() && it->second == entry.file_size(ignored)) {
            ++report.kept;
            continue;
        }
        if (auto added = add(entry.path()); !added) {
            ++report.unreadable;  // a damaged or foreign file: left out, the file left alone
            continue;
        }
        ++report.added;
    }
    if (error) return fail(dir_.string() + ": " + error.message());
    for (const auto& [name, bytes] : indexed) {
        if (present.contains(name)) continue;
        if (auto removed = remove(dir_ / name); !removed) return removed.error();
        ++report.removed;
    }
    return report;
}

Result<std::vector<MatchRow>> Index::find(const FindQuery& q) const {
    std::string sql =
        "SELECT file, file_bytes, room, map, seed, start_time, end_time, ticks, seconds, "
        "score_left, score_right, result, final_hash, format_version, core_version, producer "
        "FROM matches WHERE 1";
    if (q.player) sql += " AND file IN (SELECT file FROM players WHERE name = ?1)";
    if (q.map) sql += " AND map = ?2";
    if (q.since) sql += " AND end_time >= ?3";
    sql += " ORDER BY end_time, file";
    Statement select(db_->handle, sql.c_str());
    if (!select.ok()) return fail(std::string("sqlite: ") + sqlite3_errmsg(db_->handle));
    if (q.player) select.text(1, *q.player);
    if (q.map) select.text(2, *q.map);
    if (q.since) select.text(3, *q.since);
    std::vector<MatchRow> rows;
    sqlite3_stmt* s = select.get();
    while (sqlite3_step(s) == SQLITE_ROW) {
        MatchRow r;
        r.file = select.column_text(0);
        r.file_bytes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 1));
        if (sqlite3_column_type(s, 2) != SQLITE_NULL)
            r.room = static_cast<std::uint32_t>(sqlite3_column_int64(s, 2));
        r.map = select.column_text(3);
        r.seed = std::stoull(select.column_text(4));
        r.start_time = select.column_text(5);
        r.end_time = select.column_text(6);
        r.ticks = static_cast<std::uint64_t>(sqlite3_column_int64(s, 7));
        r.seconds = sqlite3_column_double(s, 8);
        r.score_left = static_cast<std::uint32_t>(sqlite3_column_int64(s, 9));
        r.score_right = static_cast<std::uint32_t>(sqlite3_column_int64(s, 10));
        r.result = select.column_text(11);
        r.final_hash = select.column_text(12);
        r.format_version = static_cast<std::uint32_t>(sqlite3_column_int64(s, 13));
        r.core_version = static_cast<std::uint32_t>(sqlite3_column_int64(s, 14));
        r.producer = select.column_text(15);
        rows.push_back(std::move(r));
    }
    for (MatchRow& r : rows) {
        Statement players(
            db_->handle,
            "SELECT slot, name, team, bot FROM players WHERE file = ?1 ORDER BY slot, name");
        players.text(1, r.file);
        while (sqlite3_step(players.get()) == SQLITE_ROW)
            r.players.push_back({static_cast<std::uint32_t>(sqlite3_column_int64(players.get(), 0)),
                                 players.column_text(1), players.column_text(2),
                                 sqlite3_column_int64(players.get(), 3) != 0});
    }
    return rows;
}

}  // namespace carom::replay_index
