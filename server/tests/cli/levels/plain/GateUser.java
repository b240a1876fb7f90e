package com.example;

class GateUser {
    void closeUnopened() {
        Gate gate = new Gate();
        gate.close();
    }

    void openTwice() {
        Gate gate = new Gate();
        gate.open();
        gate.open();
    }
}
