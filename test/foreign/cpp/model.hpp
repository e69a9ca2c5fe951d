// Data model of the service: typed records in vectors with index maps.
#pragma once
#include <string>
#include <vector>
#include <map>
#include <unordered_map>
#include <optional>
#include <mutex>
#include <set>
#include <cstdint>
#include "json.hpp"

using OStr = std::optional<std::string>;
using ONum = std::optional<double>;
using OTime = std::optional<int64_t>;  // epoch milliseconds

struct Message {
    std::string id;
    int64_t ts;
    std::string author;
    OStr authorId;
    std::string authorType;  // USER, AGENT, BOT
    std::string text;
    OStr parentId;
    std::vector<std::string> media;
};

struct Comment { std::string text, authorNativeId; OStr authorNativeName; };

struct CFValue {
    std::string json;        // serialized JSON value
    std::string provenance;  // serialized JSON object or empty
};

struct Action {
    std::string id;
    std::string title, summary, status, platform;
    OStr recordType;
    bool isPublic = false;
    OStr sourceURL;
    OStr queue, initialQueue;
    OStr sentiment;
    ONum sentimentScore;
    OStr moderation;
    int assignee = -1;  // index into org agents
    std::string userName, userUsername, userId;
    OStr userEmail;
    std::optional<int64_t> followerCount;
    int64_t createdAt = 0;
    OTime updatedAt, initialMessageTime, initialResponseTime, closeTime, claimTime;
    std::optional<int64_t> firstResponseSec, handleSec;
    std::string serverName, channelName;
    OStr csatScore, csatFeedback;
    ONum estimatedCSAT;
    int totalMessages = 0, totalUserMessages = 0, totalAgentMessages = 0;
    std::vector<int> tags, closingTags;  // indices into org tags
    std::map<std::string, CFValue> custom;
    OStr rootMessageText;
    std::vector<Message> messages;
    std::vector<Comment> comments;
    std::string threadId;
    OStr easyId, contributors;
    double actionability = 0, relevance = 0, resolutionQuality = 0, sentimentChange = 0, rubricScore = 0;
    bool responded() const { return initialResponseTime.has_value(); }
};

struct Agent { std::string id, name, email, role; };
struct Tag { std::string id, name, group; };
struct Queue { std::string id, name; };
struct FieldDef { std::string name, displayName, type; std::vector<std::string> options; };

struct ModCase {
    std::string caseId, externalId, evaluationId, idemKey;
    std::string canonical, canonicalNoMedia;
    int64_t submittedMs = 0;
    // decision inputs
    std::string disposition, confidence, reason, advPolarity, landPolarity;
    bool forcedStatus = false;
    std::string status;  // when forcedStatus
    std::string failureCode;
};

struct IngestRecord { std::string key; std::string body; int64_t receivedMs; };

struct Org {
    std::string id, name;
    bool adPolicy = false;
    std::vector<Action> actions;  // sorted by createdAt descending
    std::unordered_map<std::string, size_t> actionIdx;
    std::vector<Agent> agents;
    std::unordered_map<std::string, size_t> agentIdx;
    std::vector<Tag> tags;
    std::vector<Queue> queues;
    std::vector<FieldDef> fields;
    std::vector<ModCase> cases;
    std::unordered_map<std::string, size_t> caseByExt;
    std::map<std::string, IngestRecord> ingested;
    const FieldDef* field(const std::string& n) const { for (auto& f : fields) if (f.name == n) return &f; return nullptr; }
    int queueIndexByName(const std::string& n) const { for (size_t i = 0; i < queues.size(); i++) if (queues[i].name == n) return (int)i; return -1; }
};

struct ApiKey {
    std::string value;
    int org;  // index into Store::orgs
    bool read = false, write = false, ingest = false;
    bool expired = false, revoked = false;
};

struct Store {
    std::mutex mu;
    std::vector<Org> orgs;
    std::vector<ApiKey> keys;
    std::unordered_map<std::string, size_t> keyIdx;
    std::unordered_map<std::string, std::pair<int, size_t>> caseIdx;  // caseId -> (org, index)
    int64_t startMs = 0;
    uint64_t counter = 0;
};

extern Store G;
extern std::set<std::string> DEV;
inline bool dev(const char* id) { return DEV.count(id) > 0; }

// util (seed.cpp)
int64_t nowMs();
std::string fmtTime(int64_t ms);
std::string fmtDay(int64_t ms);
std::string fmtDuration(int64_t sec);
int64_t dayStart(int64_t ms);
// parse ISO date/timestamp; dateOnly set when input was a plain date. requireTime: RFC3339 date-time only.
bool parseTime(const std::string& s, int64_t& out, bool& dateOnly, bool requireTime = false);
size_t utf8Len(const std::string& s);
std::string lower(std::string s);
uint64_t fnv64(const std::string& s);
std::string hex64(uint64_t v);
void seedStore(int64_t now);

// routes.cpp
struct Request {
    std::string method, path, rawQuery, body;
    std::vector<std::string> segs;  // decoded path segments
    std::vector<std::pair<std::string, std::string>> query;
    std::map<std::string, std::string> headers;  // lower-cased names
};
struct Response {
    int status = 200;
    std::string body;
    std::string contentType = "application/json; charset=utf-8";
};
void handle(const Request& rq, Response& rs);
