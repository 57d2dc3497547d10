// Package synonyms is the one source of synonyms: the query thesaurus
// (synonyms.txt, the corpus's "long form (ACRONYM)" pairs and CamelCase
// names; Thesaurus) and the names written as one word or several that
// overlap detection shares between talks (names.txt; Names).
package synonyms
