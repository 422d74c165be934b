#include "core/sql_names.hpp"

#include <cstdint>
#include <cstring>

namespace idgen::sql_names {

namespace {

// A byte of an identifier, or of a name (PostgreSQL: letters, digits, _, $ and every non-ASCII byte).
bool IsIdentByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c >= 0x80;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// What the text reads as, normalised for the search: ASCII lowercase, a token boundary (space,
// comment, quote) as one ' ', none around a '.', a character beyond ASCII as one byte 0x80. Only
// the last bytes are kept: enough for the longest name and the byte before it.
class Matcher {
 public:
  explicit Matcher(std::span<const std::string_view> names) : names_(names) {}

  void Char(uint32_t c) {
    if (c == '"') {  // never part of a name; a quoted identifier's delimiter in SQL within a literal
      Boundary();
    } else if (c == '.') {
      if (size_ > 0 && tail_[size_ - 1] == ' ') --size_;
      Push('.');
    } else if (c >= 0x80) {
      Push(0x80);
    } else {
      Push(static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
    }
  }

  void Boundary() {
    if (size_ == 0 || tail_[size_ - 1] == ' ' || tail_[size_ - 1] == '.') return;
    Push(' ');
  }

  bool Found() {
    Check();
    return found_;
  }

 private:
  void Push(unsigned char c) {
    if (!IsIdentByte(c)) Check();
    if (size_ == sizeof tail_) {
      memmove(tail_, tail_ + kMaxName + 1, size_ - kMaxName - 1);
      size_ -= kMaxName + 1;
      dropped_ = true;
    }
    tail_[size_++] = c;
  }

  // Whether what was read so far ends with a whole name.
  void Check() {
    for (const std::string_view name : names_) {
      if (size_ < name.size() || memcmp(tail_ + size_ - name.size(), name.data(), name.size()) != 0) continue;
      const bool starts = size_ > name.size() ? !IsIdentByte(tail_[size_ - name.size() - 1]) : !dropped_;
      if (starts) found_ = true;
    }
  }

  std::span<const std::string_view> names_;
  unsigned char tail_[2 * (kMaxName + 1)];
  size_t size_ = 0;
  bool dropped_ = false;  // bytes before tail_ were read
  bool found_ = false;
};

// Reads text as PostgreSQL's lexer would, giving the matcher what each token means: the content of
// a literal or a quoted identifier, escapes decoded; a boundary for space and comments.
class Reader {
 public:
  Reader(std::string_view text, Matcher& out, bool standard_strings)
      : text_(text), out_(out), standard_strings_(standard_strings) {}

  void Run() {
    bool in_word = false;  // the previous byte belongs to an unquoted identifier, keyword or number
    while (i_ < text_.size()) {
      const char c = text_[i_];
      if (IsSpace(c)) {
        out_.Boundary();
        ++i_;
        in_word = false;
        continue;
      }
      if (SkipComment()) {
        in_word = false;
        continue;
      }
      const char lower = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      if (!in_word && lower == 'u' && At(i_ + 1) == '&' && (At(i_ + 2) == '\'' || At(i_ + 2) == '"')) {
        i_ += 2;
        UnicodeQuoted();
      } else if (!in_word && lower == 'e' && At(i_ + 1) == '\'') {
        ++i_;
        Literal(true);
      } else if (!in_word && (lower == 'n' || lower == 'b' || lower == 'x') && At(i_ + 1) == '\'') {
        ++i_;
        Literal(!standard_strings_);
      } else if (c == '\'') {
        Literal(!standard_strings_);
      } else if (c == '"') {
        QuotedIdentifier();
      } else if (c == '$' && DollarQuote(in_word)) {
        // The body of a function or a DO block is SQL again: read on through it, the delimiters
        // being boundaries.
      } else {
        out_.Char(static_cast<unsigned char>(c));
        ++i_;
        in_word = IsIdentByte(static_cast<unsigned char>(c));
        continue;
      }
      in_word = false;
    }
  }

 private:
  char At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  // -- to the end of the line, or /* */, nested.
  bool SkipComment() {
    if (text_[i_] == '-' && At(i_ + 1) == '-') {
      while (i_ < text_.size() && text_[i_] != '\n' && text_[i_] != '\r') ++i_;
    } else if (text_[i_] == '/' && At(i_ + 1) == '*') {
      int depth = 0;
      while (i_ < text_.size()) {
        if (text_[i_] == '/' && At(i_ + 1) == '*') {
          ++depth;
          i_ += 2;
        } else if (text_[i_] == '*' && At(i_ + 1) == '/') {
          i_ += 2;
          if (--depth == 0) break;
        } else {
          ++i_;
        }
      }
    } else {
      return false;
    }
    out_.Boundary();
    return true;
  }

  // A code point, as the matcher reads it.
  void CodePoint(uint32_t c) { out_.Char(c); }

  // At a backslash of an escape string (E'...', or '...' where standard_conforming_strings is off).
  void BackslashEscape() {
    const char c = At(i_ + 1);
    i_ += 2;
    switch (c) {
      case 'b':
        return CodePoint('\b');
      case 'f':
        return CodePoint('\f');
      case 'n':
        return CodePoint('\n');
      case 'r':
        return CodePoint('\r');
      case 't':
        return CodePoint('\t');
      case 'x': {
        uint32_t value = 0;
        int digits = 0;
        for (int d; digits < 2 && (d = HexValue(At(i_))) >= 0; ++digits, ++i_) value = value * 16 + d;
        return CodePoint(digits == 0 ? 'x' : value);
      }
      case 'u':
      case 'U': {
        const int want = c == 'u' ? 4 : 8;
        uint32_t value = 0;
        int digits = 0;
        for (int d; digits < want && (d = HexValue(At(i_ + digits))) >= 0; ++digits) value = value * 16 + d;
        if (digits < want) return CodePoint(static_cast<unsigned char>(c));
        i_ += want;
        return CodePoint(value);
      }
      default:
        if (c >= '0' && c <= '7') {
          uint32_t value = c - '0';
          for (int digits = 1; digits < 3 && At(i_) >= '0' && At(i_) <= '7'; ++digits, ++i_) {
            value = value * 8 + (At(i_) - '0');
          }
          return CodePoint(value & 0xFF);
        }
        return CodePoint(static_cast<unsigned char>(c));
    }
  }

  // After the closing quote of a literal: whether another one continues it ('abc'<newline>'def' is
  // 'abcdef'), and if so, past its opening quote.
  bool Continues() {
    size_t j = i_;
    while (j < text_.size() && (text_[j] == ' ' || text_[j] == '\t' || text_[j] == '\f')) ++j;
    if (j >= text_.size() || (text_[j] != '\n' && text_[j] != '\r')) return false;
    for (;;) {
      while (j < text_.size() && IsSpace(text_[j])) ++j;
      if (At(j) == '-' && At(j + 1) == '-') {
        while (j < text_.size() && text_[j] != '\n' && text_[j] != '\r') ++j;
        continue;
      }
      break;
    }
    if (j >= text_.size() || text_[j] != '\'') return false;
    i_ = j + 1;
    return true;
  }

  // At the opening quote of '...'.
  void Literal(bool backslashes) {
    out_.Boundary();
    ++i_;
    for (;;) {
      while (i_ < text_.size()) {
        const char c = text_[i_];
        if (c == '\'') {
          if (At(i_ + 1) != '\'') break;
          CodePoint('\'');
          i_ += 2;
        } else if (backslashes && c == '\\') {
          BackslashEscape();
        } else {
          CodePoint(static_cast<unsigned char>(c));
          ++i_;
        }
      }
      if (i_ >= text_.size()) break;
      ++i_;  // the closing quote
      if (!Continues()) break;
    }
    out_.Boundary();
  }

  // At the opening quote of "...".
  void QuotedIdentifier() {
    out_.Boundary();
    for (++i_; i_ < text_.size(); ++i_) {
      if (text_[i_] == '"') {
        if (At(i_ + 1) != '"') break;
        ++i_;
      }
      CodePoint(static_cast<unsigned char>(text_[i_]));
    }
    ++i_;
    out_.Boundary();
  }

  // At the opening quote of U&'...' or U&"...", which an UESCAPE 'c' may follow.
  void UnicodeQuoted() {
    const char quote = text_[i_];
    const size_t begin = i_ + 1;
    size_t end = begin;
    while (end < text_.size() && !(text_[end] == quote && At(end + 1) != quote)) end += text_[end] == quote ? 2 : 1;
    size_t after = end + 1;
    char escape = '\\';
    size_t j = after;
    while (j < text_.size() && IsSpace(text_[j])) ++j;
    static constexpr char kUescape[] = "uescape";
    bool uescape = j + 7 <= text_.size();
    for (size_t k = 0; uescape && k < 7; ++k) uescape = (text_[j + k] | 0x20) == kUescape[k];
    if (uescape && !IsIdentByte(static_cast<unsigned char>(At(j + 7)))) {
      j += 7;
      while (j < text_.size() && IsSpace(text_[j])) ++j;
      if (At(j) == '\'' && At(j + 2) == '\'' && j + 2 < text_.size()) {
        escape = text_[j + 1];
        after = j + 3;
      }
    }
    out_.Boundary();
    for (size_t k = begin; k < end && k < text_.size();) {
      const char c = text_[k];
      if (c == quote) {  // doubled
        CodePoint(static_cast<unsigned char>(c));
        k += 2;
      } else if (c == escape && k + 1 < end && text_[k + 1] == escape) {
        CodePoint(static_cast<unsigned char>(c));
        k += 2;
      } else if (c == escape) {
        const bool plus = k + 1 < end && text_[k + 1] == '+';
        const size_t first = k + (plus ? 2 : 1);
        const size_t want = plus ? 6 : 4;
        uint32_t value = 0;
        size_t digits = 0;
        for (int d; digits < want && first + digits < end && (d = HexValue(text_[first + digits])) >= 0; ++digits) {
          value = value * 16 + d;
        }
        if (digits == want) {
          CodePoint(value);
          k = first + want;
        } else {
          CodePoint(static_cast<unsigned char>(c));
          ++k;
        }
      } else {
        CodePoint(static_cast<unsigned char>(c));
        ++k;
      }
    }
    out_.Boundary();
    i_ = after < text_.size() ? after : text_.size();
  }

  // At a $: the delimiter of a dollar quote ($$, $tag$) is a boundary, and so is the one that
  // closes a quote open, even right after an identifier (END$$). $1 (a parameter), or a $ within
  // an identifier, is not a delimiter.
  bool DollarQuote(bool in_word) {
    const std::string_view rest = text_.substr(i_);
    for (size_t k = open_count_; k-- > 0;) {
      if (rest.starts_with(open_[k])) {
        i_ += open_[k].size();
        open_count_ = k;
        out_.Boundary();
        return true;
      }
    }
    if (in_word) return false;
    size_t j = i_ + 1;
    if (j < text_.size() && !(text_[j] >= '0' && text_[j] <= '9')) {
      while (j < text_.size() && text_[j] != '$' && IsIdentByte(static_cast<unsigned char>(text_[j]))) ++j;
    }
    if (At(j) != '$') return false;
    if (open_count_ < kMaxOpen) open_[open_count_++] = text_.substr(i_, j + 1 - i_);
    i_ = j + 1;
    out_.Boundary();
    return true;
  }

  std::string_view text_;
  Matcher& out_;
  bool standard_strings_;
  size_t i_ = 0;
  static constexpr size_t kMaxOpen = 8;
  std::string_view open_[kMaxOpen];  // the delimiters of the dollar quotes open, innermost last
  size_t open_count_ = 0;
};

}  // namespace

bool NamesAny(std::string_view text, std::span<const std::string_view> names, bool standard_strings) noexcept {
  // As SQL.
  Matcher sql(names);
  Reader(text, sql, standard_strings).Run();
  if (sql.Found()) return true;
  // As plain text: a name in a comment, or in a message whose quotes are not SQL's.
  Matcher plain(names);
  for (const char c : text) {
    if (IsSpace(c)) {
      plain.Boundary();
    } else {
      plain.Char(static_cast<unsigned char>(c));
    }
  }
  return plain.Found();
}

}  // namespace idgen::sql_names
