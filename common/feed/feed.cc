// ParseFeed and FetchFeed. Phases of ParseFeed:
//   1. byte checks: size, empty, the DOCTYPE's internal subset
//      (feed_input.h), HTML named entities made numeric;
//   2. libxml2 on a per-call parser context whose SAX handler collects the
//      first error and stops at any entity declaration;
//   3. the root decides the format; the channel/feed and its items are read
//      into the data model (text, HTML, links resolved, dates parsed).
#include "common/feed/feed.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/globals.h>
#include <libxml/xmlerror.h>

#include <climits>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/feed/feed_input.h"
#include "common/feed/feed_xml.h"
#include "common/util/status_macros.h"
#include "common/util/utf8.h"

namespace vertex::feed {
namespace {

// What the SAX callbacks of one parse record (the context's _private).
struct ParseState {
  std::string error;  // the first error, with its line and column
  bool fatal = false;  // `error` is a fatal one
  bool declares_entities = false;
};

ParseState& StateOf(void* user_data) {
  return *static_cast<ParseState*>(static_cast<xmlParserCtxtPtr>(user_data)->_private);
}

// Keeps the first fatal error (else the first error) instead of printing it.
void OnError(void* user_data, xmlErrorPtr error) {
  ParseState& state = StateOf(user_data);
  if (error == nullptr || error->level < XML_ERR_ERROR) return;
  const bool fatal = error->level == XML_ERR_FATAL;
  if (!state.error.empty() && (state.fatal || !fatal)) return;
  state.fatal = fatal;
  state.error = absl::StrCat(absl::StripAsciiWhitespace(error->message == nullptr ? "" : error->message),
                             " (line ", error->line, ", column ", error->int2, ")");
}

// The second guard behind CheckFeedProlog: any entity declaration stops the
// parse before libxml2 records it.
void OnEntityDecl(void* user_data, const xmlChar*, int, const xmlChar*, const xmlChar*, xmlChar*) {
  StateOf(user_data).declares_entities = true;
  xmlStopParser(static_cast<xmlParserCtxtPtr>(user_data));
}

// libxml2 reports a failed encoding conversion (bytes that do not follow
// the declared encoding) through the thread's generic error handler, not the
// context's. Silenced for one parse and restored after, so nothing is
// printed and whatever the thread had set stays set.
class ScopedSilentGenericErrors {
 public:
  ScopedSilentGenericErrors() : previous_(xmlGenericError), previous_context_(xmlGenericErrorContext) {
    xmlSetGenericErrorFunc(nullptr, &Silent);
  }
  ~ScopedSilentGenericErrors() { xmlSetGenericErrorFunc(previous_context_, previous_); }
  ScopedSilentGenericErrors(const ScopedSilentGenericErrors&) = delete;
  ScopedSilentGenericErrors& operator=(const ScopedSilentGenericErrors&) = delete;

 private:
  static void Silent(void*, const char*, ...) {}
  xmlGenericErrorFunc previous_;
  void* previous_context_;
};

struct CtxtDeleter {
  void operator()(xmlParserCtxt* c) const { xmlFreeParserCtxt(c); }
};

absl::Status EntitiesRefused() { return absl::InvalidArgumentError("feed declares entities in its DTD: refused"); }

// libxml2's global tables, set up once before any thread parses.
void InitLibxml2Once() {
  static std::once_flag once;
  std::call_once(once, [] { xmlInitParser(); });
}

// Phase 2: the document, or InvalidArgument with libxml2's first error.
absl::StatusOr<DocPtr> ReadXml(const std::string& xml) {
  InitLibxml2Once();
  std::unique_ptr<xmlParserCtxt, CtxtDeleter> ctxt(xmlNewParserCtxt());
  if (ctxt == nullptr) return absl::ResourceExhaustedError("feed: out of memory for the XML parser");
  ParseState state;
  ScopedSilentGenericErrors silent;
  ctxt->_private = &state;
  ctxt->sax->serror = &OnError;
  ctxt->sax->entityDecl = &OnEntityDecl;
  // No XML_PARSE_NOENT (no substitution), no DTD loading or defaulting, no
  // network, no XML_PARSE_HUGE (libxml2's depth and size limits stay on).
  DocPtr doc(xmlCtxtReadMemory(ctxt.get(), xml.data(), static_cast<int>(xml.size()), nullptr, nullptr,
                               XML_PARSE_NONET));
  if (state.declares_entities) return EntitiesRefused();
  if (doc != nullptr && ctxt->wellFormed) {
    // The tree is UTF-8; without a declared encoding libxml2's serialiser
    // would write non-ASCII attribute characters as &#x..; (Atom xhtml).
    if (doc->encoding == nullptr) doc->encoding = xmlStrdup(reinterpret_cast<const xmlChar*>("UTF-8"));
    return doc;
  }
  if (state.error.empty()) state.error = "unknown error";
  if (LooksLikeHtml(xml)) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a feed: root element <html> (an HTML page, not well-formed XML: ", state.error, ")"));
  }
  return absl::InvalidArgumentError(absl::StrCat("feed is not well-formed XML: ", state.error));
}

// Phase 1: the bytes libxml2 is given, or why none are.
absl::StatusOr<std::string> PrepareInput(std::string_view xml, const FeedParseOptions& options) {
  if (xml.size() > options.max_bytes || xml.size() > size_t{INT_MAX}) {
    return absl::ResourceExhaustedError(
        absl::StrCat("feed larger than ", std::min(options.max_bytes, size_t{INT_MAX}), " bytes"));
  }
  std::string_view rest = xml;
  if (rest.starts_with("\xEF\xBB\xBF")) rest.remove_prefix(3);
  if (StripSpace(rest).empty()) return absl::InvalidArgumentError("empty feed");
  if (!IsAsciiCompatible(xml)) return std::string(xml);  // the SAX guard alone
  VERTEX_RETURN_IF_ERROR(CheckFeedProlog(xml));
  return ReplaceHtmlEntities(xml);
}

}  // namespace

const char* FeedFormatName(FeedFormat format) {
  switch (format) {
    case FeedFormat::kRss09x:
      return "rss0.9x";
    case FeedFormat::kRss10:
      return "rss1.0";
    case FeedFormat::kRss20:
      return "rss2.0";
    case FeedFormat::kAtom10:
      return "atom1.0";
  }
  return "unknown";
}

absl::StatusOr<Feed> ParseFeed(std::string_view xml, const FeedParseOptions& options) {
  VERTEX_ASSIGN_OR_RETURN(std::string input, PrepareInput(xml, options));
  VERTEX_ASSIGN_OR_RETURN(DocPtr doc, ReadXml(input));
  if (util::IsValidUtf8(options.url)) return ReadFeedDocument(*doc, options);
  FeedParseOptions valid = options;  // the base of links: every string out is UTF-8
  valid.url = util::ToValidUtf8(options.url);
  return ReadFeedDocument(*doc, valid);
}

absl::StatusOr<Feed> FetchFeed(fetch::Fetcher& fetcher, const std::string& url, FeedParseOptions options) {
  absl::StatusOr<fetch::FetchResult> fetched = fetcher.Fetch(url);
  if (!fetched.ok()) {
    return absl::Status(fetched.status().code(), absl::StrCat("feed URL: ", fetched.status().message()));
  }
  options.url = fetched->final_url.empty() ? url : fetched->final_url;
  return ParseFeed(fetched->body, options);
}

}  // namespace vertex::feed
