#!/bin/bash
bash gpu-carry/measure-a.sh
MODES=auto bash gpu-carry/measure-b.sh
