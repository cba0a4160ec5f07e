#include "common/feed/feed_xml.h"

#include <libxml/xmlsave.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/feed/feed_input.h"
#include "common/html/entities.h"
#include "common/html/text.h"
#include "common/rule/url.h"

namespace vertex::feed {
namespace {

constexpr char kAtomNs[] = "http://www.w3.org/2005/Atom";
constexpr char kRdfNs[] = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
constexpr char kRss10Ns[] = "http://purl.org/rss/1.0/";
constexpr char kRss090Ns[] = "http://my.netscape.com/rdf/simple/0.9/";
constexpr char kUserlandRss2Ns[] = "http://backend.userland.com/rss2";
constexpr char kDcNs[] = "http://purl.org/dc/elements/1.1/";
constexpr char kContentNs[] = "http://purl.org/rss/1.0/modules/content/";
constexpr char kFeedburnerNs[] = "http://rssnamespace.org/feedburner/ext/1.0";
constexpr char kXhtmlNs[] = "http://www.w3.org/1999/xhtml";

const char* Chars(const xmlChar* s) { return reinterpret_cast<const char*>(s); }

// The namespace URI of `node`, nullptr when it has none.
const char* NamespaceOf(const xmlNode* node) { return node->ns == nullptr ? nullptr : Chars(node->ns->href); }

bool SameNamespace(const char* a, const char* b) {
  return (a == nullptr || b == nullptr) ? a == b : std::strcmp(a, b) == 0;
}

// An element named `name` in namespace `ns` (nullptr: no namespace).
bool Is(const xmlNode* node, const char* ns, const char* name) {
  return node->type == XML_ELEMENT_NODE && std::strcmp(Chars(node->name), name) == 0 &&
         SameNamespace(NamespaceOf(node), ns);
}

std::string Attribute(const xmlNode* node, const char* name) {
  xmlChar* value = xmlGetNoNsProp(node, reinterpret_cast<const xmlChar*>(name));
  std::string out = value == nullptr ? "" : Chars(value);
  xmlFree(value);
  return out;
}

// The text content of `node` (text, CDATA and their descendants').
std::string Text(const xmlNode* node) {
  xmlChar* content = xmlNodeGetContent(node);
  std::string out = content == nullptr ? "" : Chars(content);
  xmlFree(content);
  return out;
}

std::string Trimmed(const xmlNode* node) { return std::string(StripSpace(Text(node))); }

std::string EscapeHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default: out += c;
    }
  }
  return out;
}

// The children of `node` serialised as XML in UTF-8 (an Atom xhtml
// construct's div); "" when libxml2 cannot.
std::string InnerXml(xmlNode* node) {
  std::unique_ptr<xmlBuffer, decltype(&xmlBufferFree)> buffer(xmlBufferCreate(), &xmlBufferFree);
  if (buffer == nullptr) return "";
  xmlSaveCtxtPtr save = xmlSaveToBuffer(buffer.get(), "UTF-8", XML_SAVE_AS_XML);
  if (save == nullptr) return "";
  bool ok = true;
  for (xmlNode* child = node->children; child != nullptr; child = child->next) {
    ok = xmlSaveTree(save, child) >= 0 && ok;
  }
  if (xmlSaveClose(save) < 0 || !ok) return "";
  return std::string(Chars(xmlBufferContent(buffer.get())), xmlBufferLength(buffer.get()));
}

// The base URL of `node`: `url` under every xml:base from the root down.
std::string BaseOf(const xmlNode* node, const std::string& url) {
  std::vector<std::string> bases;
  for (const xmlNode* n = node; n != nullptr && n->type == XML_ELEMENT_NODE; n = n->parent) {
    xmlChar* base = xmlGetNsProp(n, reinterpret_cast<const xmlChar*>("base"), XML_XML_NAMESPACE);
    if (base != nullptr) bases.emplace_back(Chars(base));
    xmlFree(base);
  }
  std::string resolved = url;
  for (auto it = bases.rbegin(); it != bases.rend(); ++it) {
    absl::StatusOr<std::string> next = rule::ResolveUrl(resolved, *it);
    resolved = next.ok() ? *std::move(next) : *it;
  }
  return resolved;
}

// `reference` (written in `node`) absolute, or as written when there is no
// absolute base to resolve it against.
std::string Resolve(const xmlNode* node, std::string_view reference, const std::string& url) {
  const std::string_view ref = StripSpace(reference);
  if (ref.empty()) return "";
  absl::StatusOr<std::string> resolved = rule::ResolveUrl(BaseOf(node, url), ref);
  return resolved.ok() ? *std::move(resolved) : std::string(ref);
}

void AddText(std::vector<std::string>& list, std::string value) {
  if (!value.empty()) list.push_back(std::move(value));
}

void SetDate(FeedItem& item, std::string_view text) {
  if (item.date.has_value() || !item.date_error.empty() || StripSpace(text).empty()) return;
  absl::StatusOr<FeedDate> date = ParseFeedDate(text);
  if (date.ok()) {
    item.date = *std::move(date);
  } else {
    item.date_error = std::string(date.status().message());
  }
}

bool IsHttpUrl(std::string_view u) {
  const absl::string_view url(u.data(), u.size());
  return absl::StartsWithIgnoreCase(url, "http://") || absl::StartsWithIgnoreCase(url, "https://");
}

// ---- Atom ----

// An Atom text construct (title, summary, content) as HTML.
std::string AtomHtml(xmlNode* node) {
  const std::string type = absl::AsciiStrToLower(Attribute(node, "type"));
  if (!Attribute(node, "src").empty()) return "";  // out-of-line content
  if (type == "xhtml") {
    for (xmlNode* child = node->children; child != nullptr; child = child->next) {
      if (Is(child, kXhtmlNs, "div") || Is(child, nullptr, "div")) return InnerXml(child);
    }
    return InnerXml(node);
  }
  if (type == "html" || type == "text/html") return Text(node);
  if (type.empty() || type == "text" || absl::StartsWith(type, "text/")) return EscapeHtml(Text(node));
  return "";  // another media type (base64): nothing a page shows as is
}

// An Atom text construct as plain text.
std::string AtomPlain(xmlNode* node) {
  const std::string type = absl::AsciiStrToLower(Attribute(node, "type"));
  if (type == "html" || type == "text/html") return HtmlToPlainText(Text(node));
  return html::NormalizeSpace(Text(node));
}

// The href of an Atom alternate link (rel absent or "alternate"), "" if
// `node` is no such link.
std::string AtomAlternate(xmlNode* node, const std::string& url) {
  if (!Is(node, kAtomNs, "link")) return "";
  const std::string rel = std::string(absl::StripAsciiWhitespace(Attribute(node, "rel")));
  if (!rel.empty() && rel != "alternate" && rel != "http://www.iana.org/assignments/relation/alternate") return "";
  return Resolve(node, Attribute(node, "href"), url);
}

std::vector<std::string> AtomAuthors(xmlNode* parent) {
  std::vector<std::string> authors;
  for (xmlNode* c = parent->children; c != nullptr; c = c->next) {
    if (!Is(c, kAtomNs, "author")) continue;
    for (xmlNode* n = c->children; n != nullptr; n = n->next) {
      if (Is(n, kAtomNs, "name")) AddText(authors, html::NormalizeSpace(Text(n)));
    }
  }
  return authors;
}

// Fields the Atom and RSS readers share: Dublin Core and FeedBurner.
// True when `c` was one of them.
bool ReadExtension(xmlNode* c, FeedItem& item, std::string& orig_link, const std::string& url) {
  if (Is(c, kDcNs, "creator")) {
    AddText(item.authors, html::NormalizeSpace(Text(c)));
  } else if (Is(c, kDcNs, "subject")) {
    AddText(item.categories, html::NormalizeSpace(Text(c)));
  } else if (Is(c, kDcNs, "date")) {
    return false;  // ordered by the caller (after pubDate / published)
  } else if (Is(c, kFeedburnerNs, "origLink")) {
    if (orig_link.empty()) orig_link = Resolve(c, Text(c), url);
  } else {
    return false;
  }
  return true;
}

// The item's link: feedburner:origLink over the feed's own (kept as
// proxy_link).
void SetLink(FeedItem& item, std::string link, std::string orig_link) {
  if (!orig_link.empty()) {
    item.proxy_link = link != orig_link ? std::move(link) : "";
    item.link = std::move(orig_link);
  } else {
    item.link = std::move(link);
  }
}

FeedItem ReadAtomEntry(xmlNode* entry, const std::vector<std::string>& feed_authors,
                       const std::string& url) {
  FeedItem item;
  std::string link, orig_link, published, updated, dc_date;
  bool has_title = false;
  for (xmlNode* c = entry->children; c != nullptr; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || ReadExtension(c, item, orig_link, url)) continue;
    if (Is(c, kAtomNs, "title") && !has_title) {
      item.title = AtomPlain(c);
      has_title = true;
    } else if (Is(c, kAtomNs, "link") && link.empty()) {
      link = AtomAlternate(c, url);
    } else if (Is(c, kAtomNs, "id") && item.guid.empty()) {
      item.guid = Trimmed(c);
    } else if (Is(c, kAtomNs, "published") && published.empty()) {
      published = Text(c);
    } else if (Is(c, kAtomNs, "updated") && updated.empty()) {
      updated = Text(c);
    } else if (Is(c, kDcNs, "date") && dc_date.empty()) {
      dc_date = Text(c);
    } else if (Is(c, kAtomNs, "category")) {
      std::string label = html::NormalizeSpace(Attribute(c, "label"));
      AddText(item.categories, label.empty() ? html::NormalizeSpace(Attribute(c, "term")) : label);
    } else if (Is(c, kAtomNs, "summary") && item.description_html.empty()) {
      item.description_html = AtomHtml(c);
    } else if (Is(c, kAtomNs, "content") && item.content_html.empty()) {
      item.content_html = AtomHtml(c);
    }
  }
  for (const std::string& date : {published, dc_date, updated}) SetDate(item, date);
  std::vector<std::string> authors = AtomAuthors(entry);
  for (std::string& a : authors) AddText(item.authors, std::move(a));
  if (item.authors.empty()) item.authors = feed_authors;
  SetLink(item, std::move(link), std::move(orig_link));
  return item;
}

Feed ReadAtom(xmlNode* root, const FeedParseOptions& options) {
  Feed feed;
  feed.format = FeedFormat::kAtom10;
  const std::vector<std::string> feed_authors = AtomAuthors(root);
  for (xmlNode* c = root->children; c != nullptr; c = c->next) {
    if (Is(c, kAtomNs, "title") && feed.title.empty()) {
      feed.title = AtomPlain(c);
    } else if (Is(c, kAtomNs, "link") && feed.link.empty()) {
      feed.link = AtomAlternate(c, options.url);
    } else if (Is(c, kAtomNs, "entry") && feed.items.size() < options.max_items) {
      feed.items.push_back(ReadAtomEntry(c, feed_authors, options.url));
    }
  }
  return feed;
}

// ---- RSS 0.9x, 1.0, 2.0 ----

// An RSS element: in the channel's namespace (none for 0.9x and 2.0).
bool IsRss(const xmlNode* node, const char* rss_ns, const char* name) {
  return Is(node, rss_ns, name);
}

FeedItem ReadRssItem(xmlNode* element, const char* ns, const std::string& url) {
  FeedItem item;
  std::string link, orig_link, guid_link, pub_date, dc_date;
  bool has_title = false;
  for (xmlNode* c = element->children; c != nullptr; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || ReadExtension(c, item, orig_link, url)) continue;
    if (IsRss(c, ns, "title") && !has_title) {
      item.title = HtmlToPlainText(Text(c));
      has_title = true;
    } else if (IsRss(c, ns, "link") && link.empty()) {
      link = Resolve(c, Text(c), url);
    } else if (IsRss(c, ns, "guid") && item.guid.empty()) {
      item.guid = Trimmed(c);
      const bool permalink = absl::AsciiStrToLower(Attribute(c, "isPermaLink")) != "false";
      if (permalink && IsHttpUrl(item.guid)) guid_link = Resolve(c, item.guid, url);
    } else if (IsRss(c, ns, "description") && item.description_html.empty()) {
      item.description_html = Text(c);
    } else if (IsRss(c, ns, "pubDate") && pub_date.empty()) {
      pub_date = Text(c);
    } else if (Is(c, kDcNs, "date") && dc_date.empty()) {
      dc_date = Text(c);
    } else if (IsRss(c, ns, "author")) {
      AddText(item.authors, RssAuthorName(Text(c)));
    } else if (IsRss(c, ns, "category")) {
      AddText(item.categories, html::NormalizeSpace(Text(c)));
    } else if (Is(c, kContentNs, "encoded") && item.content_html.empty()) {
      item.content_html = Text(c);
    }
  }
  for (const std::string& date : {pub_date, dc_date}) SetDate(item, date);
  SetLink(item, link.empty() ? std::move(guid_link) : std::move(link), std::move(orig_link));
  return item;
}

// Reads the channel's title and link, and the items under `items_parent`.
void ReadRssChannel(xmlNode* channel, const char* ns, const FeedParseOptions& options, Feed& feed) {
  for (xmlNode* c = channel->children; c != nullptr; c = c->next) {
    if (IsRss(c, ns, "title") && feed.title.empty()) {
      feed.title = HtmlToPlainText(Text(c));
    } else if (IsRss(c, ns, "link") && feed.link.empty()) {
      feed.link = Resolve(c, Text(c), options.url);
    }
  }
}

void ReadRssItems(xmlNode* parent, const char* ns, const FeedParseOptions& options, Feed& feed) {
  for (xmlNode* c = parent->children; c != nullptr && feed.items.size() < options.max_items; c = c->next) {
    if (IsRss(c, ns, "item")) feed.items.push_back(ReadRssItem(c, ns, options.url));
  }
}

xmlNode* FirstChild(xmlNode* parent, const char* ns, const char* name) {
  for (xmlNode* c = parent->children; c != nullptr; c = c->next) {
    if (Is(c, ns, name)) return c;
  }
  return nullptr;
}

absl::StatusOr<Feed> ReadRss(xmlNode* root, const FeedParseOptions& options) {
  const char* ns = NamespaceOf(root);
  xmlNode* channel = FirstChild(root, ns, "channel");
  if (channel == nullptr) return absl::InvalidArgumentError("not a feed: <rss> has no <channel>");
  Feed feed;
  const std::string version(absl::StripAsciiWhitespace(Attribute(root, "version")));
  feed.format = absl::StartsWith(version, "0.9") ? FeedFormat::kRss09x : FeedFormat::kRss20;
  ReadRssChannel(channel, ns, options, feed);
  ReadRssItems(channel, ns, options, feed);
  return feed;
}

// RSS 1.0 and 0.90: items are siblings of the channel (some feeds nest them
// in it: read there too).
absl::StatusOr<Feed> ReadRdf(xmlNode* root, const FeedParseOptions& options) {
  for (const char* ns : {kRss10Ns, kRss090Ns}) {
    xmlNode* channel = FirstChild(root, ns, "channel");
    if (channel == nullptr) continue;
    Feed feed;
    feed.format = FeedFormat::kRss10;
    ReadRssChannel(channel, ns, options, feed);
    ReadRssItems(root, ns, options, feed);
    ReadRssItems(channel, ns, options, feed);
    return feed;
  }
  return absl::InvalidArgumentError("not a feed: <rdf:RDF> holds no RSS 1.0 or 0.90 <channel>");
}

std::string QualifiedName(const xmlNode* node) {
  if (node->ns != nullptr && node->ns->prefix != nullptr) {
    return absl::StrCat(Chars(node->ns->prefix), ":", Chars(node->name));
  }
  return Chars(node->name);
}

}  // namespace

std::string HtmlToPlainText(std::string_view html) {
  std::string stripped;
  stripped.reserve(html.size());
  for (size_t i = 0; i < html.size(); ++i) {
    const char next = i + 1 < html.size() ? html[i + 1] : '\0';
    const bool tag = html[i] == '<' && (absl::ascii_isalpha(static_cast<unsigned char>(next)) || next == '/' ||
                                        next == '!' || next == '?');
    const size_t close = tag ? html.find('>', i) : std::string_view::npos;
    if (close == std::string_view::npos) {
      stripped += html[i];
      continue;
    }
    stripped += ' ';
    i = close;
  }
  return html::NormalizeSpace(html::DecodeHtmlEntities(stripped));
}

std::string RssAuthorName(std::string_view text) {
  const std::string author = html::NormalizeSpace(text);
  const size_t open = author.find('(');
  if (open != std::string::npos && author.back() == ')' && author.substr(0, open).find('@') != std::string::npos) {
    std::string name = html::NormalizeSpace(std::string_view(author).substr(open + 1, author.size() - open - 2));
    if (!name.empty()) return name;
  }
  return author;
}

absl::StatusOr<Feed> ReadFeedDocument(const xmlDoc& doc, const FeedParseOptions& options) {
  xmlNode* root = xmlDocGetRootElement(&doc);
  if (root == nullptr) return absl::InvalidArgumentError("not a feed: no root element");
  absl::StatusOr<Feed> feed = absl::InvalidArgumentError(absl::StrCat("not a feed: root element <", QualifiedName(root), ">"));
  if (Is(root, nullptr, "rss") || Is(root, kUserlandRss2Ns, "rss")) {
    feed = ReadRss(root, options);
  } else if (Is(root, kRdfNs, "RDF")) {
    feed = ReadRdf(root, options);
  } else if (Is(root, kAtomNs, "feed")) {
    feed = ReadAtom(root, options);
  }
  if (feed.ok()) feed->url = options.url;
  return feed;
}

}  // namespace vertex::feed
