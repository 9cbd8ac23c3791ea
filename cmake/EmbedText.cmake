# Writes a C++ file that defines one constant holding a text file's contents, so that the program carries the text
# (the HTML report's style and script) without looking for it at run time.
#   cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=kName -DHEADER=path/of/its/declaration.hpp -P EmbedText.cmake
file(READ "${INPUT}" text)
set(delimiter "gpubench_text")  # a raw string's delimiter has 16 characters at most
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} holds the raw string's end ')${delimiter}\"': pick another delimiter in ${CMAKE_CURRENT_LIST_FILE}")
endif()
file(WRITE "${OUTPUT}" "// Generated from ${INPUT} by cmake/EmbedText.cmake: edit that file, not this one.\n"
                    "#include \"${HEADER}\"\n\n"
                    "namespace gpubench {\n\n"
                    "extern const char ${SYMBOL}[] = R\"${delimiter}(${text})${delimiter}\";\n\n"
                    "}  // namespace gpubench\n")
