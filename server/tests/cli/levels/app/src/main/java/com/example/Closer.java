package com.example;

class Closer {
    void closeUnopened() {
        Gate gate = new Gate();
        gate.close();
    }
}
