// The CloudTalk query language (Table 1 of the CloudTalk paper), concrete form.
// No embedded code: the AST is built by AstBuilder, validation lives in QueryValidator.
grammar CloudTalk;

query
    : separator* (statement (separator+ statement)*)? separator* EOF
    ;

separator
    : NEWLINE
    | ';'
    ;

statement
    : SHARED? names+=IDENT '=' (names+=IDENT '=')* candidateList     # variableDeclaration
    | (name=IDENT)? src=endpoint '->' dst=endpoint attribute*         # flowStatement
    ;

// Candidate lists may be split over several lines.
candidateList
    : '(' NEWLINE* (candidates+=candidate NEWLINE*)* ')'
    ;

candidate
    : address                                                         # addressCandidate
    | DISK                                                            # diskCandidate
    ;

endpoint
    : IDENT                                                           # variableEndpoint
    | address                                                         # addressEndpoint
    | DISK                                                            # diskEndpoint
    ;

address
    : DOTTED
    | IPV6
    ;

attribute
    : kind=(START | END | SIZE | RATE | TRANSFER) value=expression
    ;

expression
    : left=expression op=('*' | '/') right=expression                 # binaryExpression
    | left=expression op=('+' | '-') right=expression                 # binaryExpression
    | '(' inner=expression ')'                                        # parenthesizedExpression
    | NUMBER                                                          # numberLiteral
    | function=IDENT '(' target=flowTarget ')'                        # attributeReference
    ;

flowTarget
    : IDENT                                                           # flowByName
    | NUMBER                                                          # flowByPosition
    ;

SHARED   : 'shared';
DISK     : 'disk';
START    : 'start';
END      : 'end';
SIZE     : 'size';
RATE     : 'rate';
TRANSFER : 'transfer';

ARROW    : '->';
EQ       : '=';
LPAREN   : '(';
RPAREN   : ')';
SEMI     : ';';
PLUS     : '+';
MINUS    : '-';
STAR     : '*';
SLASH    : '/';

// Dotted quads of any part count lex as one token so that "10.0.1" gets "invalid IPv4 address", not a puzzle.
DOTTED   : DIGIT+ '.' DIGIT+ ('.' DIGIT+)+;
// Anything with two or more colons is an IPv6 candidate; AddressLiteral checks it. Its first group is bounded (groups
// have 4 digits; up to 8 still lex as an address, so that AddressLiteral names the long group): with HEX* there, a
// run of hex digits without a colon ("1a1a1a...") was rescanned from every token in it, quadratic in its length.
IPV6     : HEX_GROUP ':' HEX* ':' (HEX | ':' | '.')*;
// The unit suffix is checked by Unit, which names the unknown suffix in its error. An exponent (1e3, 1.5E-2) lexes
// into the number too, so that it is refused as one rather than as a stray digit after the unit 'e'.
NUMBER   : DIGIT+ ('.' DIGIT+)? ([eE] [+-]? DIGIT+)? [a-zA-Z]*;
IDENT    : [a-zA-Z_] [a-zA-Z_0-9]*;

NEWLINE  : '\r'? '\n' | '\r';
WS       : [ \t\f]+ -> skip;
COMMENT  : '#' ~[\r\n]* -> skip;

// Never let the lexer fail on its own: the parser reports the stray character with its position.
UNRECOGNIZED : .;

fragment DIGIT : [0-9];
fragment HEX   : [0-9a-fA-F];
fragment HEX_GROUP : HEX? HEX? HEX? HEX? HEX? HEX? HEX? HEX?;
