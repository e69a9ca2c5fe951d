import { JAVA_CASES } from './foreign/cases.ts';
import { JAVA } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(JAVA, JAVA_CASES);
