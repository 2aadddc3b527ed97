#include "elf_dynamic_symbols.h"

#include <elf.h>

#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

namespace pjrtx::conformance {
namespace {

// Copies a T out of `file` at `offset`, or nothing if it does not fit. The
// file is untrusted input: every offset read from it is bounds-checked and
// structs are copied, never aliased, so misalignment is harmless.
template <typename T>
std::optional<T> ReadAt(const std::vector<char>& file, uint64_t offset) {
  if (offset > file.size() || file.size() - offset < sizeof(T)) {
    return std::nullopt;
  }
  T value;
  std::memcpy(&value, file.data() + offset, sizeof(T));
  return value;
}

std::optional<Elf64_Shdr> SectionHeader(const std::vector<char>& file,
                                        const Elf64_Ehdr& header,
                                        uint64_t index) {
  // Checked before multiplying so that a huge index cannot wrap around.
  if (header.e_shoff > file.size() ||
      index >= (file.size() - header.e_shoff) / sizeof(Elf64_Shdr)) {
    return std::nullopt;
  }
  return ReadAt<Elf64_Shdr>(file, header.e_shoff + index * sizeof(Elf64_Shdr));
}

}  // namespace

bool ReadDefinedDynamicSymbols(const std::string& path,
                               std::vector<std::string>* names,
                               std::string* error) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    *error = "cannot open \"" + path + "\"";
    return false;
  }
  const std::vector<char> file((std::istreambuf_iterator<char>(stream)),
                               std::istreambuf_iterator<char>());

  std::optional<Elf64_Ehdr> header = ReadAt<Elf64_Ehdr>(file, 0);
  if (!header.has_value() ||
      std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0) {
    *error = "\"" + path + "\" is not an ELF file";
    return false;
  }
  const unsigned char kHostData =
      std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB;
  if (header->e_ident[EI_CLASS] != ELFCLASS64 ||
      header->e_ident[EI_DATA] != kHostData) {
    *error = "\"" + path + "\" is not an ELF64 file of the host byte order";
    return false;
  }
  if (header->e_shoff == 0 || header->e_shentsize != sizeof(Elf64_Shdr)) {
    *error = "\"" + path + "\" has no usable section header table";
    return false;
  }
  // With 0xff00 sections or more, e_shnum is 0 and the real count is in the
  // first section header's sh_size.
  uint64_t num_sections = header->e_shnum;
  if (num_sections == 0) {
    std::optional<Elf64_Shdr> first = SectionHeader(file, *header, 0);
    if (!first.has_value()) {
      *error = "\"" + path + "\": truncated section header table";
      return false;
    }
    num_sections = first->sh_size;
  }

  std::optional<Elf64_Shdr> dynsym;
  for (uint64_t i = 0; i < num_sections; ++i) {
    std::optional<Elf64_Shdr> section = SectionHeader(file, *header, i);
    if (!section.has_value()) {
      *error = "\"" + path + "\": truncated section header table";
      return false;
    }
    if (section->sh_type == SHT_DYNSYM) {
      dynsym = section;
      break;
    }
  }
  if (!dynsym.has_value()) {
    *error = "\"" + path + "\" has no .dynsym section";
    return false;
  }
  std::optional<Elf64_Shdr> strtab =
      dynsym->sh_link < num_sections
          ? SectionHeader(file, *header, dynsym->sh_link)
          : std::nullopt;
  if (!strtab.has_value() || strtab->sh_offset > file.size() ||
      file.size() - strtab->sh_offset < strtab->sh_size) {
    *error = "\"" + path + "\": .dynsym has no readable string table";
    return false;
  }
  const uint64_t entry_size =
      dynsym->sh_entsize == 0 ? sizeof(Elf64_Sym) : dynsym->sh_entsize;
  if (entry_size < sizeof(Elf64_Sym)) {
    *error = "\"" + path + "\": .dynsym entries are too small";
    return false;
  }

  names->clear();
  const uint64_t num_symbols = dynsym->sh_size / entry_size;
  // Entry 0 is the reserved null symbol.
  for (uint64_t i = 1; i < num_symbols; ++i) {
    std::optional<Elf64_Sym> symbol =
        dynsym->sh_offset > file.size() ||
                i > (file.size() - dynsym->sh_offset) / entry_size
            ? std::nullopt
            : ReadAt<Elf64_Sym>(file, dynsym->sh_offset + i * entry_size);
    if (!symbol.has_value()) {
      *error = "\"" + path + "\": truncated .dynsym";
      return false;
    }
    const unsigned char binding = ELF64_ST_BIND(symbol->st_info);
    if (symbol->st_shndx == SHN_UNDEF ||
        (binding != STB_GLOBAL && binding != STB_WEAK &&
         binding != STB_GNU_UNIQUE)) {
      continue;
    }
    if (symbol->st_name >= strtab->sh_size) {
      *error = "\"" + path + "\": symbol name out of the string table";
      return false;
    }
    const char* begin = file.data() + strtab->sh_offset + symbol->st_name;
    const size_t max_length = strtab->sh_size - symbol->st_name;
    const size_t length = strnlen(begin, max_length);
    if (length == max_length) {
      *error = "\"" + path + "\": unterminated symbol name";
      return false;
    }
    names->emplace_back(begin, length);
  }
  return true;
}

}  // namespace pjrtx::conformance
