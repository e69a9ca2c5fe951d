#!/bin/sh
# Build the single service binary ./cca
cd "$(dirname "$0")" && exec g++ -O2 -std=c++17 -pthread -o cca *.cpp
