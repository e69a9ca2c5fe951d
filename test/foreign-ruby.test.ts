import { RUBY_CASES } from './foreign/cases.ts';
import { RUBY } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(RUBY, RUBY_CASES);
