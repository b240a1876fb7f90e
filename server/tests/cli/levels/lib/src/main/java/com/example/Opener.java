package com.example;

class Opener {
    void openTwice() {
        Gate gate = new Gate();
        gate.open();
        gate.open();
    }
}
