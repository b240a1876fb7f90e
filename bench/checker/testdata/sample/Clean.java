package com.example.bench;

import java.util.ArrayList;
import java.util.List;

/** Bench smoke-test input without any protocol object. */
public class Clean {
    static int sum(List<Integer> xs) {
        int s = 0;
        for (int x : xs) {
            s += x;
        }
        return s;
    }

    public static void main(String[] args) {
        List<Integer> xs = new ArrayList<>();
        xs.add(1);
        System.out.println(sum(xs));
    }
}
