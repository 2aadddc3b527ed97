#include "tests/plugins/cuda/ptx_interpreter/parser.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/decoder.h"
#include "tests/plugins/cuda/ptx_interpreter/lexer.h"
#include "tests/plugins/cuda/ptx_interpreter/literals.h"
#include "tests/plugins/cuda/ptx_interpreter/text.h"

namespace fake_cuda::ptx {
namespace {

// A register file bigger than this is surely a mistake (a `%r<N>` range
// with a typo), and would cost its size for every thread.
constexpr size_t kMaxSlots = size_t{1} << 20;

struct SpecialRegister {
  std::string_view name;
  uint32_t slot;
};
constexpr SpecialRegister kSpecialRegisters[] = {
    {"%tid.x", kTidSlot},           {"%tid.y", kTidSlot + 1},
    {"%tid.z", kTidSlot + 2},       {"%ntid.x", kNtidSlot},
    {"%ntid.y", kNtidSlot + 1},     {"%ntid.z", kNtidSlot + 2},
    {"%ctaid.x", kCtaidSlot},       {"%ctaid.y", kCtaidSlot + 1},
    {"%ctaid.z", kCtaidSlot + 2},   {"%nctaid.x", kNctaidSlot},
    {"%nctaid.y", kNctaidSlot + 1}, {"%nctaid.z", kNctaidSlot + 2},
};

bool IsIdentifier(std::string_view word) {
  if (word.empty() || word[0] == '.' || (word[0] >= '0' && word[0] <= '9')) {
    return false;
  }
  for (char ch : word) {
    if (ch == '.') return false;
  }
  return true;
}

// An operand as written, before its instruction says what it must be.
struct RawOperand {
  std::string_view word;  // Register, literal, label, or address base.
  bool negative = false;  // A '-' before a literal.
  bool is_address = false;
  int64_t offset = 0;  // Of an address.
};

// The state of one kernel under construction.
struct KernelBuilder {
  struct Register {
    uint32_t slot;
    Type type;
  };
  struct Param {
    std::string_view name;
    size_t size;
  };
  struct LabelUse {
    size_t instruction;
    std::string_view label;
    int line;
  };

  KernelProgram program;
  std::vector<Param> params;
  std::map<std::string, Register, std::less<>> registers;
  std::map<Slot, uint32_t> immediates;          // Bits -> slot.
  std::map<std::string_view, uint32_t> labels;  // -> instruction index.
  std::vector<LabelUse> label_uses;
};

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  bool Parse(std::vector<KernelProgram>* kernels);
  const std::string& error() const { return error_; }

 private:
  const Token& Peek(size_t ahead = 0) const {
    const size_t at = std::min(position_ + ahead, tokens_.size() - 1);
    return tokens_[at];
  }
  const Token& Next() {
    const Token& token = Peek();
    if (position_ < tokens_.size() - 1) ++position_;
    return token;
  }
  bool Fail(int line, std::string_view message) {
    error_ = Cat("line ", line, ": ", message);
    return false;
  }
  // Fails naming what was found where `expected` should be.
  bool Unexpected(const Token& token, std::string_view expected) {
    if (token.kind == Token::Kind::kEnd) {
      return Fail(token.line,
                  Cat("expected ", expected, ", found the end of the text"));
    }
    return Fail(token.line,
                Cat("expected ", expected, ", found '", token.text, "'"));
  }
  bool Expect(std::string_view text) {
    if (!Peek().Is(text)) return Unexpected(Peek(), Cat("'", text, "'"));
    Next();
    return true;
  }
  bool ExpectWord(std::string_view what, std::string_view* word) {
    if (Peek().kind != Token::Kind::kWord) return Unexpected(Peek(), what);
    *word = Next().text;
    return true;
  }
  bool ExpectCount(std::string_view what, uint64_t* count);

  bool ParseDirective();
  bool ParseEntry(std::vector<KernelProgram>* kernels);
  bool ParseParam(KernelBuilder& kernel);
  bool ParseBody(KernelBuilder& kernel);
  bool ParseRegisters(KernelBuilder& kernel);
  bool ParseInstruction(KernelBuilder& kernel);
  bool ParseOperand(RawOperand* operand);
  bool ResolveValue(KernelBuilder& kernel, const RawOperand& operand, Type type,
                    bool destination, int line, uint32_t* slot);
  bool ResolveAddress(KernelBuilder& kernel, const RawOperand& operand,
                      const Operation& op, int line, Instruction* instruction);
  bool NewSlot(KernelBuilder& kernel, Slot initial, int line, uint32_t* slot);

  std::vector<Token> tokens_;
  size_t position_ = 0;
  std::string error_;
};

bool Parser::ExpectCount(std::string_view what, uint64_t* count) {
  const Token& token = Peek();
  Literal literal;
  if (token.kind != Token::Kind::kWord ||
      !ParseLiteral(token.text, false, &literal) ||
      literal.kind != Literal::Kind::kInteger) {
    return Unexpected(token, what);
  }
  Next();
  *count = literal.bits;
  return true;
}

bool Parser::Parse(std::vector<KernelProgram>* kernels) {
  while (Peek().kind != Token::Kind::kEnd) {
    const Token& token = Peek();
    if (token.Is(".visible") || token.Is(".entry")) {
      if (!ParseEntry(kernels)) return false;
    } else if (token.kind == Token::Kind::kWord && token.text[0] == '.') {
      if (!ParseDirective()) return false;
    } else {
      return Unexpected(token, "a directive");
    }
  }
  return true;
}

bool Parser::ParseDirective() {
  const Token& token = Next();
  std::string_view word;
  if (token.Is(".version")) {
    if (!ExpectWord("a version number", &word)) return false;
    // major.minor; any version reads the same here.
    const size_t dot = word.find('.');
    const bool well_formed =
        dot != std::string_view::npos && dot > 0 && dot + 1 < word.size() &&
        word.find_first_not_of("0123456789.") == std::string_view::npos &&
        word.find('.', dot + 1) == std::string_view::npos;
    if (!well_formed) {
      return Fail(token.line, Cat("malformed .version '", word, "'"));
    }
    return true;
  }
  if (token.Is(".target")) {
    // sm_XX and options such as texmode_independent; the interpreter runs
    // any target.
    if (!ExpectWord("a target", &word)) return false;
    while (Peek().Is(",")) {
      Next();
      if (!ExpectWord("a target option", &word)) return false;
    }
    return true;
  }
  if (token.Is(".address_size")) {
    if (!ExpectWord("an address size", &word)) return false;
    if (word != "64") {
      return Fail(token.line, Cat("unsupported .address_size ", word,
                                  " (only 64-bit addresses are)"));
    }
    return true;
  }
  return Fail(token.line, Cat("unsupported directive '", token.text, "'"));
}

bool Parser::ParseEntry(std::vector<KernelProgram>* kernels) {
  if (Peek().Is(".visible")) Next();
  const Token& entry = Next();
  if (!entry.Is(".entry")) {
    if (entry.kind == Token::Kind::kWord && entry.text[0] == '.') {
      return Fail(entry.line, Cat("unsupported directive '", entry.text, "'"));
    }
    return Unexpected(entry, "'.entry'");
  }
  KernelBuilder kernel;
  const Token& name = Peek();
  if (name.kind != Token::Kind::kWord || !IsIdentifier(name.text)) {
    return Unexpected(name, "the kernel name after .entry");
  }
  Next();
  kernel.program.name = std::string(name.text);
  for (const KernelProgram& other : *kernels) {
    if (other.name == kernel.program.name) {
      return Fail(name.line, Cat("kernel '", name.text, "' is defined twice"));
    }
  }
  if (Peek().Is("(")) {
    Next();
    if (!Peek().Is(")")) {
      while (true) {
        if (!ParseParam(kernel)) return false;
        if (Peek().Is(",")) {
          Next();
          continue;
        }
        break;
      }
    }
    if (!Expect(")")) return false;
  }
  const Token& open = Peek();
  if (!open.Is("{")) {
    if (open.kind == Token::Kind::kWord && open.text[0] == '.') {
      return Fail(open.line, Cat("unsupported directive '", open.text,
                                 "' on kernel '", name.text, "'"));
    }
    return Unexpected(open, "'{' to start the kernel body");
  }
  Next();
  // Slots below kFirstRegisterSlot: the constant true, then the special
  // registers, which each launch fills in.
  kernel.program.initial_slots.assign(kFirstRegisterSlot, 0);
  kernel.program.initial_slots[kTrueSlot] = 1;
  if (!ParseBody(kernel)) return false;
  for (const KernelBuilder::LabelUse& use : kernel.label_uses) {
    auto it = kernel.labels.find(use.label);
    if (it == kernel.labels.end()) {
      return Fail(use.line, Cat("undefined label '", use.label, "'"));
    }
    kernel.program.code[use.instruction].target = it->second;
  }
  kernels->push_back(std::move(kernel.program));
  return true;
}

bool Parser::ParseParam(KernelBuilder& kernel) {
  const Token& start = Peek();
  if (!start.Is(".param")) return Unexpected(start, "'.param'");
  Next();
  std::optional<Type> type;
  while (Peek().kind == Token::Kind::kWord && Peek().text[0] == '.') {
    const Token& attribute = Next();
    if (attribute.Is(".align")) {
      uint64_t alignment;
      if (!ExpectCount("an alignment", &alignment)) return false;
      continue;
    }
    type = TypeFromName(attribute.text.substr(1));
    if (!type || *type == Type::kPred) {
      return Fail(attribute.line,
                  Cat("unsupported parameter type '", attribute.text, "'"));
    }
  }
  const Token& name = Peek();
  if (!type) return Unexpected(name, "a parameter type");
  if (name.kind != Token::Kind::kWord || !IsIdentifier(name.text)) {
    return Unexpected(name, "a parameter name");
  }
  Next();
  uint64_t count = 1;
  if (Peek().Is("[")) {
    Next();
    if (!ExpectCount("an array size", &count) || !Expect("]")) return false;
    if (count == 0 || count > (uint64_t{1} << 20)) {
      return Fail(name.line, Cat("bad size of parameter '", name.text, "'"));
    }
  }
  for (const KernelBuilder::Param& param : kernel.params) {
    if (param.name == name.text) {
      return Fail(name.line,
                  Cat("parameter '", name.text, "' is declared twice"));
    }
  }
  const size_t size = static_cast<size_t>(count) * SizeOf(*type);
  kernel.params.push_back({name.text, size});
  kernel.program.param_sizes.push_back(size);
  return true;
}

bool Parser::ParseBody(KernelBuilder& kernel) {
  while (true) {
    const Token& token = Peek();
    if (token.Is("}")) {
      Next();
      // Running off the end of a kernel ends the thread.
      Instruction ret;
      ret.kind = Kind::kReturn;
      ret.line = token.line;
      kernel.program.code.push_back(ret);
      kernel.program.opcodes.push_back("ret");
      return true;
    }
    if (token.kind == Token::Kind::kEnd) {
      return Fail(token.line, Cat("missing '}' at the end of kernel '",
                                  kernel.program.name, "'"));
    }
    if (token.Is(".reg")) {
      if (!ParseRegisters(kernel)) return false;
    } else if (token.Is("{")) {
      return Fail(token.line, "nested blocks are not supported");
    } else if (token.kind == Token::Kind::kWord && token.text[0] == '.') {
      return Fail(token.line, Cat("unsupported directive '", token.text, "'"));
    } else if (token.kind == Token::Kind::kWord && Peek(1).Is(":")) {
      if (!IsIdentifier(token.text)) {
        return Fail(token.line, Cat("bad label '", token.text, "'"));
      }
      const auto [it, inserted] = kernel.labels.emplace(
          token.text, static_cast<uint32_t>(kernel.program.code.size()));
      if (!inserted) {
        return Fail(token.line,
                    Cat("label '", token.text, "' is defined twice"));
      }
      Next();
      Next();
    } else if (token.Is("@") || token.kind == Token::Kind::kWord) {
      if (!ParseInstruction(kernel)) return false;
    } else {
      return Unexpected(token, "an instruction");
    }
  }
}

bool Parser::NewSlot(KernelBuilder& kernel, Slot initial, int line,
                     uint32_t* slot) {
  std::vector<Slot>& slots = kernel.program.initial_slots;
  if (slots.size() >= kMaxSlots) {
    return Fail(line,
                Cat("more than ", kMaxSlots, " registers and immediates"));
  }
  *slot = static_cast<uint32_t>(slots.size());
  slots.push_back(initial);
  return true;
}

bool Parser::ParseRegisters(KernelBuilder& kernel) {
  const int line = Next().line;  // .reg
  const Token& type_token = Peek();
  std::optional<Type> type;
  if (type_token.kind == Token::Kind::kWord && type_token.text[0] == '.') {
    type = TypeFromName(type_token.text.substr(1));
  }
  if (!type) {
    return Fail(type_token.line,
                Cat("unsupported register type '", type_token.text, "'"));
  }
  Next();
  while (true) {
    std::string_view name;
    if (!ExpectWord("a register name", &name)) return false;
    if (name.find('.') != std::string_view::npos || name[0] == '.' ||
        (name[0] >= '0' && name[0] <= '9')) {
      return Fail(line, Cat("bad register name '", name, "'"));
    }
    std::vector<std::string> names;
    if (Peek().Is("<")) {
      Next();
      uint64_t count;
      if (!ExpectCount("a register count", &count) || !Expect(">")) {
        return false;
      }
      if (count > kMaxSlots) {
        return Fail(line, Cat("too many registers in ", name, "<", count, ">"));
      }
      for (uint64_t i = 0; i < count; ++i) {
        names.push_back(Cat(name, i));
      }
    } else {
      names.emplace_back(name);
    }
    for (std::string& register_name : names) {
      uint32_t slot;
      if (!NewSlot(kernel, 0, line, &slot)) return false;
      const auto [it, inserted] = kernel.registers.emplace(
          std::move(register_name), KernelBuilder::Register{slot, *type});
      if (!inserted) {
        return Fail(line, Cat("register '", it->first, "' is declared twice"));
      }
    }
    if (Peek().Is(",")) {
      Next();
      continue;
    }
    return Expect(";");
  }
}

bool Parser::ParseOperand(RawOperand* operand) {
  *operand = RawOperand{};
  const Token& token = Peek();
  if (token.Is("[")) {
    Next();
    operand->is_address = true;
    if (!ExpectWord("an address", &operand->word)) return false;
    if (Peek().Is("+") || Peek().Is("-")) {
      bool negative = Next().Is("-");
      if (Peek().Is("-")) {
        Next();
        negative = !negative;
      }
      Literal literal;
      const Token& offset = Peek();
      if (offset.kind != Token::Kind::kWord ||
          !ParseLiteral(offset.text, negative, &literal) ||
          literal.kind != Literal::Kind::kInteger) {
        return Unexpected(offset, "an address offset");
      }
      Next();
      operand->offset = static_cast<int64_t>(literal.bits);
    }
    return Expect("]");
  }
  if (token.Is("-")) {
    Next();
    operand->negative = true;
    return ExpectWord("a literal after '-'", &operand->word);
  }
  if (token.Is("!")) {
    return Fail(token.line, "negated predicate operands are not supported");
  }
  if (token.Is("{")) {
    return Fail(token.line, "vector operands are not supported");
  }
  return ExpectWord("an operand", &operand->word);
}

bool Parser::ResolveValue(KernelBuilder& kernel, const RawOperand& operand,
                          Type type, bool destination, int line,
                          uint32_t* slot) {
  const std::string_view word = operand.word;
  if (operand.is_address) {
    return Fail(line, Cat("unexpected address [", word, "]"));
  }
  if (!operand.negative) {
    auto it = kernel.registers.find(word);
    if (it != kernel.registers.end()) {
      const bool is_pred = it->second.type == Type::kPred;
      if (is_pred != (type == Type::kPred)) {
        return Fail(line, is_pred ? Cat("predicate ", word,
                                        " where a value is expected")
                                  : Cat(word, " is not a predicate"));
      }
      *slot = it->second.slot;
      return true;
    }
    for (const SpecialRegister& special : kSpecialRegisters) {
      if (special.name != word) continue;
      if (destination) {
        return Fail(line, Cat("cannot write ", word));
      }
      if (type == Type::kPred) {
        return Fail(line, Cat(word, " is not a predicate"));
      }
      *slot = special.slot;
      return true;
    }
  }
  Literal literal;
  if (!ParseLiteral(word, operand.negative, &literal)) {
    if (!word.empty() && word[0] == '%') {
      return Fail(line, Cat("undeclared register '", word, "'"));
    }
    return Fail(line, Cat("expected a register or a literal, found '",
                          operand.negative ? "-" : "", word, "'"));
  }
  if (destination) {
    return Fail(line, Cat("cannot write to the literal ", word));
  }
  Slot bits;
  if (!EncodeLiteral(literal, type, &bits)) {
    return Fail(line, Cat("literal ", word, " does not fit the operand"));
  }
  auto it = kernel.immediates.find(bits);
  if (it != kernel.immediates.end()) {
    *slot = it->second;
    return true;
  }
  if (!NewSlot(kernel, bits, line, slot)) return false;
  kernel.immediates.emplace(bits, *slot);
  return true;
}

bool Parser::ResolveAddress(KernelBuilder& kernel, const RawOperand& operand,
                            const Operation& op, int line,
                            Instruction* instruction) {
  if (!operand.is_address) {
    return Fail(line,
                Cat("expected an address in [], found '", operand.word, "'"));
  }
  if (op.param_space) {
    for (size_t i = 0; i < kernel.params.size(); ++i) {
      if (kernel.params[i].name != operand.word) continue;
      if (operand.offset < 0 ||
          static_cast<uint64_t>(operand.offset) + op.width >
              kernel.params[i].size) {
        return Fail(
            line, Cat("reads past the end of parameter '", operand.word, "'"));
      }
      instruction->target = static_cast<uint32_t>(i);
      instruction->offset = operand.offset;
      return true;
    }
    return Fail(line,
                Cat("'", operand.word, "' is not a parameter of the kernel"));
  }
  instruction->offset = operand.offset;
  // The base: a 64-bit value, from a register or an absolute address.
  return ResolveValue(kernel, RawOperand{operand.word}, Type::kU64,
                      /*destination=*/false, line, &instruction->a);
}

bool Parser::ParseInstruction(KernelBuilder& kernel) {
  Instruction instruction;
  if (Peek().Is("@")) {
    const int line = Next().line;
    if (Peek().Is("!")) {
      Next();
      instruction.guard_negated = true;
    }
    std::string_view guard;
    if (!ExpectWord("a predicate after '@'", &guard)) return false;
    if (!ResolveValue(kernel, RawOperand{guard}, Type::kPred,
                      /*destination=*/false, line, &instruction.guard)) {
      return false;
    }
  }
  const Token& opcode_token = Peek();
  if (opcode_token.kind != Token::Kind::kWord) {
    return Unexpected(opcode_token, "an instruction");
  }
  Next();
  const std::string_view opcode_text = opcode_token.text;
  const int line = opcode_token.line;
  const std::optional<Operation> op = Decode(SplitOpcode(opcode_text));
  if (!op) {
    return Fail(line, Cat("unsupported instruction '", opcode_text, "'"));
  }
  std::vector<RawOperand> operands;
  if (!Peek().Is(";")) {
    while (true) {
      RawOperand operand;
      if (!ParseOperand(&operand)) return false;
      operands.push_back(operand);
      if (Peek().Is(",")) {
        Next();
        continue;
      }
      if (Peek().Is("|")) {
        return Fail(line, "two destination predicates (p|q) are not supported");
      }
      break;
    }
  }
  if (!Expect(";")) return false;
  if (operands.size() != op->operands.size()) {
    return Fail(line, Cat("'", opcode_text, "' takes ", op->operands.size(),
                          " operands, not ", operands.size()));
  }
  instruction.kind = op->kind;
  instruction.compute = op->compute;
  instruction.rounding = op->rounding;
  instruction.ftz = op->ftz;
  instruction.sat = op->sat;
  instruction.combine = op->combine;
  instruction.width = op->width;
  instruction.sign_extend = op->sign_extend;
  instruction.line = line;
  // Operands fill d, a, b, c in order; without a destination, from a.
  uint32_t* const fields[] = {&instruction.d, &instruction.a, &instruction.b,
                              &instruction.c};
  const size_t first_field = op->has_destination ? 0 : 1;
  for (size_t i = 0; i < operands.size(); ++i) {
    const OperandSpec& spec = op->operands[i];
    switch (spec.kind) {
      case OperandKind::kValue:
        if (!ResolveValue(kernel, operands[i], spec.type,
                          op->has_destination && i == 0, line,
                          fields[first_field + i])) {
          return false;
        }
        break;
      case OperandKind::kAddress:
        if (!ResolveAddress(kernel, operands[i], *op, line, &instruction)) {
          return false;
        }
        break;
      case OperandKind::kLabel:
        if (operands[i].is_address || operands[i].negative ||
            !IsIdentifier(operands[i].word)) {
          return Fail(line,
                      Cat("expected a label, found '", operands[i].word, "'"));
        }
        kernel.label_uses.push_back(
            {kernel.program.code.size(), operands[i].word, line});
        break;
    }
  }
  kernel.program.code.push_back(instruction);
  kernel.program.opcodes.emplace_back(opcode_text);
  return true;
}

}  // namespace

bool ParseModule(std::string_view text, std::vector<KernelProgram>* kernels,
                 std::string* error) {
  std::vector<Token> tokens;
  if (!Tokenize(text, &tokens, error)) return false;
  Parser parser(std::move(tokens));
  std::vector<KernelProgram> parsed;
  if (!parser.Parse(&parsed)) {
    *error = parser.error();
    return false;
  }
  *kernels = std::move(parsed);
  return true;
}

}  // namespace fake_cuda::ptx
