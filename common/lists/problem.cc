#include "common/lists/problem.h"

#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/util/file.h"
#include "common/util/json_reader.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"

namespace vertex::lists {
namespace {

using util::Json;

constexpr char kProblemsFile[] = "problems.jsonl";
constexpr char kPagesDir[] = "pages";
// A page larger than html::Parser's default limit could not be parsed
// anyway; refusing it here keeps a stray huge file from being read whole.
constexpr size_t kMaxPageBytes = 8 * 1024 * 1024;

absl::Status BadLine(const std::string& where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
}

// Ids name files under pages/: nothing that could leave that directory or
// that a file system would treat specially.
absl::Status CheckId(const std::string& id) {
  if (id.empty()) return absl::InvalidArgumentError("empty problem id");
  if (id.find('/') != std::string::npos || id.find('\\') != std::string::npos ||
      id.find("..") != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("problem id \"", id, "\" may not hold '/', '\\' or '..'"));
  }
  for (char c : id) {
    if (static_cast<unsigned char>(c) < 0x20) {
      return absl::InvalidArgumentError(
          absl::StrCat("problem id \"", id, "\" holds a control character"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ListKind> ParseKind(const std::string& name) {
  for (ListKind kind : {ListKind::kList, ListKind::kHotList}) {
    if (name == ListKindName(kind)) return kind;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown kind \"", name, "\" (expected list or hotlist)"));
}

// The member `key` of `object`, which must be there with kind `kind`.
absl::StatusOr<const Json*> Member(const Json& object, std::string_view key, Json::Kind kind) {
  const Json* v = object.Find(key);
  if (v == nullptr) return absl::InvalidArgumentError(absl::StrCat("missing \"", std::string(key), "\""));
  if (v->kind != kind) {
    return absl::InvalidArgumentError(absl::StrCat("\"", std::string(key), "\": expected ",
                                                   JsonKindName(kind), ", got ",
                                                   JsonKindName(v->kind)));
  }
  return v;
}

absl::StatusOr<std::string> StringMember(const Json& object, std::string_view key) {
  VERTEX_ASSIGN_OR_RETURN(const Json* v, Member(object, key, Json::Kind::kString));
  return v->scalar;
}

absl::StatusOr<std::vector<std::string>> XPathsFromJson(const Json& array) {
  std::vector<std::string> xpaths;
  for (const Json& item : array.items) {
    if (!item.is_string() || item.scalar.empty()) {
      return absl::InvalidArgumentError("\"positive_xpaths\" holds an item that is not an XPath");
    }
    xpaths.push_back(item.scalar);
  }
  return xpaths;
}

absl::StatusOr<std::vector<ListRow>> RowsFromJson(const Json& array) {
  std::vector<ListRow> rows;
  for (const Json& item : array.items) {
    if (!item.is_object()) return absl::InvalidArgumentError("a row is not an object");
    ListRow row;
    VERTEX_ASSIGN_OR_RETURN(row.text, StringMember(item, "text"));
    if (item.Find("url") != nullptr) {
      VERTEX_ASSIGN_OR_RETURN(row.url, StringMember(item, "url"));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// The fields of one problems.jsonl line (all but the page).
absl::StatusOr<ListProblem> ProblemFromJson(const Json& j) {
  if (!j.is_object()) return absl::InvalidArgumentError("the line is not a JSON object");
  ListProblem p;
  VERTEX_ASSIGN_OR_RETURN(p.id, StringMember(j, "id"));
  VERTEX_RETURN_IF_ERROR(CheckId(p.id));
  VERTEX_ASSIGN_OR_RETURN(p.domain, StringMember(j, "domain"));
  VERTEX_ASSIGN_OR_RETURN(p.url, StringMember(j, "url"));
  VERTEX_ASSIGN_OR_RETURN(const std::string kind, StringMember(j, "kind"));
  VERTEX_ASSIGN_OR_RETURN(p.kind, ParseKind(kind));
  VERTEX_ASSIGN_OR_RETURN(const Json* xpaths, Member(j, "positive_xpaths", Json::Kind::kArray));
  VERTEX_ASSIGN_OR_RETURN(p.positive_xpaths, XPathsFromJson(*xpaths));
  VERTEX_ASSIGN_OR_RETURN(const Json* rows, Member(j, "rows", Json::Kind::kArray));
  VERTEX_ASSIGN_OR_RETURN(p.rows, RowsFromJson(*rows));
  if (j.Find("variant") != nullptr) {
    VERTEX_ASSIGN_OR_RETURN(p.variant, StringMember(j, "variant"));
  }
  if (j.Find("out_of_class") != nullptr) {
    VERTEX_ASSIGN_OR_RETURN(const Json* ooc, Member(j, "out_of_class", Json::Kind::kBool));
    p.out_of_class = ooc->boolean();
  }
  return p;
}

std::string ProblemToJson(const ListProblem& p) {
  util::JsonWriter w;
  w.BeginObject().Key("id").String(p.id).Key("domain").String(p.domain);
  w.Key("url").String(p.url).Key("kind").String(ListKindName(p.kind));
  w.Key("variant").String(p.variant).Key("out_of_class").Bool(p.out_of_class);
  w.Key("positive_xpaths").BeginArray();
  for (const std::string& xpath : p.positive_xpaths) w.String(xpath);
  w.EndArray().Key("rows").BeginArray();
  for (const ListRow& row : p.rows) {
    w.BeginObject().Key("text").String(row.text);
    if (p.kind == ListKind::kHotList || !row.url.empty()) w.Key("url").String(row.url);
    w.EndObject();
  }
  w.EndArray().EndObject();
  return w.Release();
}

std::string PagePath(const std::string& dir, const std::string& id) {
  return (std::filesystem::path(dir) / kPagesDir / (id + ".html")).string();
}

}  // namespace

const char* ListKindName(ListKind kind) {
  switch (kind) {
    case ListKind::kList: return "list";
    case ListKind::kHotList: return "hotlist";
  }
  return "?";
}

absl::StatusOr<std::vector<ListProblem>> LoadProblems(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / kProblemsFile).string();
  VERTEX_ASSIGN_OR_RETURN(const std::string text, util::ReadFile(path));
  std::vector<ListProblem> problems;
  std::set<std::string> ids;
  size_t line_number = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = std::string_view(text).substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = absl::StrCat(path, ":", line_number);
    VERTEX_ASSIGN_OR_RETURN(const Json j, util::ParseJson(line, where));
    absl::StatusOr<ListProblem> problem = ProblemFromJson(j);
    if (!problem.ok()) return BadLine(where, problem.status().message());
    if (!ids.insert(problem->id).second) {
      return BadLine(where, absl::StrCat("problem id \"", problem->id, "\" given twice"));
    }
    absl::StatusOr<std::string> html = util::ReadFile(PagePath(dir, problem->id), kMaxPageBytes);
    if (!html.ok()) {
      return absl::Status(html.status().code(),
                          absl::StrCat(where, ": the page of \"", problem->id,
                                       "\": ", html.status().message()));
    }
    problem->html = *std::move(html);
    problems.push_back(*std::move(problem));
  }
  return problems;
}

absl::Status WriteProblems(const std::vector<ListProblem>& problems, const std::string& dir) {
  // Every id is checked before anything is written, so a bad set leaves no
  // half-written directory behind.
  std::set<std::string> ids;
  for (size_t i = 0; i < problems.size(); ++i) {
    absl::Status id = CheckId(problems[i].id);
    if (!id.ok()) return absl::InvalidArgumentError(absl::StrCat("problem ", i, ": ", id.message()));
    if (!ids.insert(problems[i].id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("problem ", i, ": id \"", problems[i].id, "\" given twice"));
    }
  }
  std::string jsonl;
  for (const ListProblem& p : problems) {
    VERTEX_RETURN_IF_ERROR(util::WriteFile(PagePath(dir, p.id), p.html));
    absl::StrAppend(&jsonl, ProblemToJson(p), "\n");
  }
  return util::WriteFile((std::filesystem::path(dir) / kProblemsFile).string(), jsonl);
}

}  // namespace vertex::lists
