import { PERL_CASES } from './foreign/cases.ts';
import { PERL } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(PERL, PERL_CASES);
